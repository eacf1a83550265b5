package writecmd

// git_checkout writes worktree files itself, through an os.Root of the worktree, rather than with go-git's
// Worktree.Checkout. What we evaluated in go-git v5.19.3: its worktree filesystem (osfs BoundOS wrapped in
// worktreeFilesystem) refuses paths whose leading directories are symlinks, but it checks with Lstat and then
// opens by path, so a directory swapped for a symlink in between is followed (BoundOS then keeps the result
// inside the worktree by path checks, not with the confinement os.Root enforces at every step). Its Checkout
// is a Reset (MergeReset) without git's per-file "your local changes would be overwritten" refusal naming the
// files, and it writes .git/index in place. Here the switch is planned and refused as a whole first
// (write_checkout_plan.go), every write and delete goes through the worktree's os.Root after a no-symlink
// check of each parent, files land by temp file + rename, and the index and HEAD are written via lock files.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing"
)

// CheckoutArgs are the arguments of git_checkout.
type CheckoutArgs struct {
	RepoPath string `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; required when there are several)"`
	Branch   string `json:"branch" jsonschema:"the existing local branch to switch to"`
}

// CheckoutOut is the result of git_checkout.
type CheckoutOut struct {
	Branch  string   `json:"branch" jsonschema:"the branch HEAD now points at"`
	Commit  string   `json:"commit" jsonschema:"its commit's full hash"`
	Short   string   `json:"short" jsonschema:"its commit's short hash"`
	Updated []string `json:"updated,omitempty" jsonschema:"worktree files written"`
	Removed []string `json:"removed,omitempty" jsonschema:"worktree files deleted (they were unmodified and are not on the branch)"`
}

// SwitchTo plans the switch from head to target, refuses it on any conflict, then writes the worktree, the
// index and HEAD, in that order (as git does).
func SwitchTo(rp *repo.Repo, ctx context.Context, head, target *plumbing.Reference, out *CheckoutOut) error {
	cur, tgtFiles, from, err := switchTrees(rp, ctx, target)
	if err != nil {
		return err
	}
	ix, err := gitwrite.LoadIndex(rp)
	if err != nil {
		return err
	}
	defer ix.Close()
	if u := ix.Unmerged(); len(u) > 0 {
		return fmt.Errorf("cannot switch branches with unmerged paths: %v", u)
	}
	wt, err := gitwrite.OpenWorktree(rp)
	if err != nil {
		return err
	}
	defer wt.Close()
	plan := makePlan(rp, ctx, wt, ix, cur, tgtFiles)
	if len(plan.unsupported) > 0 {
		return fmt.Errorf("cannot switch to %q with grove; nothing was changed:\n  %s", target.Name().Short(),
			strings.Join(plan.unsupported[:min(len(plan.unsupported), 20)], "\n  "))
	}
	if len(plan.conflicts) > 0 {
		return conflictError(target.Name().Short(), plan.conflicts)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := applyPlan(rp, ctx, wt, ix, plan); err != nil {
		return fmt.Errorf("switching to %s failed part-way; run git_status to see the worktree: %w", target.Name().Short(), err)
	}
	if err := ix.Save(); err != nil {
		return err
	}
	rp.Changed()
	if err := gitwrite.UpdateRef(rp, plumbing.NewSymbolicReference(plumbing.HEAD, target.Name()), head); err != nil {
		return err
	}
	_ = gitwrite.AppendReflog(rp, plumbing.HEAD, from, target.Hash(),
		fmt.Sprintf("checkout: moving from %s to %s", headName(head), target.Name().Short())) // best effort
	out.Updated, out.Removed = plan.writes, plan.removes
	return nil
}

// headName is how git's reflog names where HEAD was: its branch, or its commit when detached.
func headName(head *plumbing.Reference) string {
	if head.Type() == plumbing.SymbolicReference {
		return head.Target().Short()
	}
	return head.Hash().String()
}

// switchTrees reads the files of HEAD (none on an unborn branch) and of target, and HEAD's commit hash.
func switchTrees(rp *repo.Repo, ctx context.Context, target *plumbing.Reference) (cur, tgt map[string]gitwrite.BlobEntry, from plumbing.Hash, err error) {
	tc, err := rp.Git.CommitObject(target.Hash())
	if err != nil {
		return nil, nil, from, fmt.Errorf("reading %s: %w", target.Name().Short(), err)
	}
	cc, err := rp.HeadCommit()
	if err != nil {
		return nil, nil, from, fmt.Errorf("reading HEAD's commit: %w", err)
	}
	if cc != nil {
		from = cc.Hash
	}
	if cur, err = gitwrite.FlatTree(rp, ctx, cc); err != nil {
		return nil, nil, from, err
	}
	tgt, err = gitwrite.FlatTree(rp, ctx, tc)
	return cur, tgt, from, err
}

// NoBranch explains a missing branch, pointing at a remote-tracking branch of that name if there is one
// ("x" finds origin/x; "origin/x" finds itself).
func NoBranch(rp *repo.Repo, name plumbing.ReferenceName) error {
	err := fmt.Errorf("branch %q does not exist (git_branch lists branches)", name.Short())
	candidates := []plumbing.ReferenceName{plumbing.ReferenceName("refs/remotes/" + name.Short())}
	if remotes, rerr := rp.Git.Remotes(); rerr == nil {
		for _, rm := range remotes {
			candidates = append(candidates, plumbing.NewRemoteReferenceName(rm.Config().Name, name.Short()))
		}
	}
	for _, rn := range candidates {
		if _, e := rp.Git.Storer.Reference(rn); e == nil {
			local := strings.TrimPrefix(rn.Short(), strings.SplitN(rn.Short(), "/", 2)[0]+"/")
			return errors.Join(err, fmt.Errorf("the remote-tracking branch %s exists: create a local branch from it "+
				"with git_create_branch (branch_name %q, base_branch %q), then switch to that", rn.Short(), local, rn.Short()))
		}
	}
	return err
}
