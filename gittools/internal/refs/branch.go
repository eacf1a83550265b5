// Package refs owns listing a repository's branches (with their upstream)
// and tags, and the arguments and answers of git_branch and git_tag's
// listing.
//
//	out, err := refs.Branches(rp, true, false) // local branches only
//	tags, err := refs.Tags(rp)
package refs

import (
	"sort"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing"
)

// BranchArgs are the arguments of git_branch.
type BranchArgs struct {
	RepoPath   string `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; required when there are several)"`
	BranchType string `json:"branch_type,omitempty" jsonschema:"local (default), remote or all" enum:"local,remote,all"`
}

// BranchOut is the structured result of git_branch.
type BranchOut struct {
	Branches []BranchInfo `json:"branches"`
	Current  string       `json:"current,omitempty" jsonschema:"the checked-out branch; empty when HEAD is detached"`
}

// BranchInfo is one branch.
type BranchInfo struct {
	Name    string `json:"name" jsonschema:"short name: main, or origin/main for a remote branch"`
	Remote  bool   `json:"remote,omitempty"`
	Commit  string `json:"commit"`
	Current bool   `json:"current,omitempty"`
}

// Branches lists branches sorted by name, locals first.
func Branches(rp *repo.Repo, local, remote bool) (BranchOut, error) {
	out := BranchOut{Branches: []BranchInfo{}}
	if head, err := rp.Git.Storer.Reference(plumbing.HEAD); err == nil && head.Type() == plumbing.SymbolicReference {
		out.Current = head.Target().Short()
	}
	refs, err := rp.Git.Storer.IterReferences()
	if err != nil {
		return out, err
	}
	err = refs.ForEach(func(ref *plumbing.Reference) error {
		n := ref.Name()
		if ref.Type() != plumbing.HashReference {
			return nil // e.g. refs/remotes/origin/HEAD
		}
		switch {
		case local && n.IsBranch():
			out.Branches = append(out.Branches, BranchInfo{Name: n.Short(), Commit: ref.Hash().String(), Current: n.Short() == out.Current})
		case remote && n.IsRemote():
			out.Branches = append(out.Branches, BranchInfo{Name: strings.TrimPrefix(string(n), "refs/remotes/"), Remote: true, Commit: ref.Hash().String()})
		}
		return nil
	})
	sort.SliceStable(out.Branches, func(i, j int) bool {
		a, b := out.Branches[i], out.Branches[j]
		if a.Remote != b.Remote {
			return !a.Remote
		}
		return a.Name < b.Name
	})
	return out, err
}
