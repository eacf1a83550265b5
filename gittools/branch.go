package gittools

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// BranchArgs are the arguments of git_branch.
type BranchArgs struct {
	RepoPath   string `json:"repo_path,omitempty" jsonschema:"absolute path or file:// URI inside a root; optional when there is exactly one root"`
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

func (r *Repos) addBranch(s *mcp.Server) {
	scope.AddTool(s, &mcp.Tool{
		Name:        "git_branch",
		Title:       "Git branches",
		Description: "List local, remote or all branches with the commit each points at; the current branch is marked with *.",
		Annotations: readOnlyTool(),
	}, r.opts.Scope, r.branch)
}

func (r *Repos) branch(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in BranchArgs) (*mcp.CallToolResult, BranchOut, error) {
	var local, remote bool
	switch in.BranchType {
	case "", "local":
		local = true
	case "remote":
		remote = true
	case "all":
		local, remote = true, true
	default:
		return nil, BranchOut{}, fmt.Errorf("branch_type must be local, remote or all, not %q", in.BranchType)
	}
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, BranchOut{}, err
	}
	defer unlock()
	out, err := rp.branches(local, remote)
	if err != nil {
		return nil, BranchOut{}, err
	}
	var b strings.Builder
	for _, br := range out.Branches {
		mark := "  "
		if br.Current {
			mark = "* "
		}
		name := br.Name
		if br.Remote && remote && local {
			name = "remotes/" + name
		}
		fmt.Fprintf(&b, "%s%s %s\n", mark, name, shortHash(br.Commit))
	}
	if len(out.Branches) == 0 {
		b.WriteString("no branches\n")
	}
	return textResult(b.String()), out, nil
}

// branches lists branches sorted by name, locals first.
func (rp *repo) branches(local, remote bool) (BranchOut, error) {
	out := BranchOut{Branches: []BranchInfo{}}
	if head, err := rp.git.Storer.Reference(plumbing.HEAD); err == nil && head.Type() == plumbing.SymbolicReference {
		out.Current = head.Target().Short()
	}
	refs, err := rp.git.Storer.IterReferences()
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
