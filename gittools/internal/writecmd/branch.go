package writecmd

import (
	"cmp"
	"context"
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

	base string // what it was created from, as given
}

// CreateBranch runs git_create_branch: a new branch at in.BaseBranch (default HEAD), HEAD left alone.
func CreateBranch(ctx context.Context, env Env, in CreateBranchArgs) (CreateBranchOut, error) {
	name, err := BranchName(in.BranchName)
	if err != nil {
		return CreateBranchOut{}, err
	}
	base := cmp.Or(in.BaseBranch, "HEAD")
	if err := repo.ValidRevision(base); err != nil {
		return CreateBranchOut{}, err
	}
	rp, unlock, err := env.Open(ctx, in.RepoPath)
	if err != nil {
		return CreateBranchOut{}, err
	}
	defer unlock()
	h, err := rp.Resolve(base)
	if err != nil {
		return CreateBranchOut{}, err
	}
	if err := CreateRef(rp, plumbing.NewHashReference(name, h)); err != nil {
		return CreateBranchOut{}, err
	}
	if err := gitwrite.AppendReflog(rp, name, plumbing.ZeroHash, h, "branch: Created from "+base); err != nil {
		env.log().Debug("reflog not written", "ref", name, "err", err)
	}
	return CreateBranchOut{Branch: name.Short(), Commit: h.String(), Short: h.String()[:repo.ShortLen], base: base}, nil
}

// Text is git_create_branch's answer for the model.
func (out CreateBranchOut) Text() string {
	return fmt.Sprintf("Created branch %s at %s (from %s). HEAD did not move; use git_checkout to switch.", out.Branch, out.Short, out.base)
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
