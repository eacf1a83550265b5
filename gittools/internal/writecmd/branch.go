package writecmd

import (
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// CreateBranchArgs are the arguments of git_create_branch.
type CreateBranchArgs struct {
	RepoPath   string `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; required when there are several)"`
	BranchName string `json:"branch_name" jsonschema:"the new branch's name, e.g. feature/login"`
	BaseBranch string `json:"base_branch,omitempty" jsonschema:"the branch, tag or commit to start from (default HEAD)"`
}

// CreateBranchOut is the result of git_create_branch.
type CreateBranchOut struct {
	Branch string `json:"branch" jsonschema:"the new branch"`
	Commit string `json:"commit" jsonschema:"the full hash it points at"`
	Short  string `json:"short" jsonschema:"the short hash it points at"`
}

// BranchName validates a branch name given short ("x") or full ("refs/heads/x").
func BranchName(s string) (plumbing.ReferenceName, error) {
	if err := gitfmt.ValidRefName(s); err != nil {
		return "", err
	}
	short := strings.TrimPrefix(s, "refs/heads/")
	if strings.HasPrefix(s, "refs/") && short == s {
		return "", fmt.Errorf("invalid branch name %q: only refs/heads/ names are branches", s)
	}
	if err := gitfmt.ValidRefName(short); err != nil {
		return "", err
	}
	return plumbing.NewBranchReferenceName(short), nil
}

// CreateRef creates a new ref, refusing an existing one and one that clashes with an existing ref's path.
func CreateRef(rp *repo.Repo, ref *plumbing.Reference) error {
	if _, err := rp.Git.Storer.Reference(ref.Name()); err == nil {
		return fmt.Errorf("%q already exists", ref.Name().Short())
	}
	clash, err := gitwrite.RefClash(rp, ref.Name())
	if err != nil {
		return err
	}
	if clash != "" {
		return fmt.Errorf("cannot create %q: it clashes with the existing ref %q", ref.Name().Short(), plumbing.ReferenceName(clash).Short())
	}
	return gitwrite.UpdateRef(rp, ref, nil)
}
