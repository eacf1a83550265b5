package writecmd

// git_checkout writes worktree files itself, through an os.Root of the worktree, rather than with go-git's
// Worktree.Checkout. What we evaluated in go-git v5.19.3: its worktree filesystem (osfs BoundOS wrapped in
// worktreeFilesystem) refuses paths whose leading directories are symlinks, but it checks with Lstat and then
// opens by path, so a directory swapped for a symlink in between is followed (BoundOS then keeps the result
// inside the worktree by path checks, not with the confinement os.Root enforces at every step). Its Checkout
// is a Reset (MergeReset) without git's per-file "your local changes would be overwritten" refusal naming the
// files, and it writes .git/index in place. Here the switch is planned and refused as a whole first
// (checkout_plan.go), every write and delete goes through the worktree's os.Root after a no-symlink check of
// each parent, new files are staged and then renamed in by a journaled commit phase that a cancel cannot
// interrupt and an I/O error undoes (checkout_apply.go), and the index and HEAD are renamed in last from lock
// files held since planning ended.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/internal/words"

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

	already bool // HEAD was on Branch: nothing changed
}

// Checkout runs git_checkout: it switches the worktree, index and HEAD to an existing local branch, or
// refuses, naming the files, when local changes or untracked files are in the way.
func Checkout(ctx context.Context, env Env, in CheckoutArgs) (CheckoutOut, error) {
	name, err := BranchName(in.Branch)
	if err != nil {
		return CheckoutOut{}, err
	}
	rp, unlock, err := env.Open(ctx, in.RepoPath)
	if err != nil {
		return CheckoutOut{}, err
	}
	defer unlock()
	target, err := rp.Git.Storer.Reference(name)
	if err != nil {
		return CheckoutOut{}, noBranch(rp, name)
	}
	head, err := rp.Git.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return CheckoutOut{}, fmt.Errorf("reading HEAD: %w", err)
	}
	out := CheckoutOut{Branch: name.Short(), Commit: target.Hash().String(), Short: target.Hash().String()[:repo.ShortLen]}
	if head.Type() == plumbing.SymbolicReference && head.Target() == name {
		out.already = true
		return out, nil
	}
	if err := switchTo(rp, ctx, head, target, &out); err != nil {
		return CheckoutOut{}, err
	}
	return out, nil
}

// Text is git_checkout's answer for the model.
func (out CheckoutOut) Text() string {
	if out.already {
		return fmt.Sprintf("Already on %s (%s); nothing changed.", out.Branch, out.Short)
	}
	text := fmt.Sprintf("Switched to branch %s (%s): %s written, %d removed; local changes to other files were kept.",
		out.Branch, out.Short, words.Count(len(out.Updated), "file", "files"), len(out.Removed))
	return text + ListText("written", out.Updated) + ListText("removed", out.Removed)
}

// switchTo plans the switch from head to target and refuses it on any conflict; then it stages the new files
// (a cancel up to here changes nothing), commits them into the worktree, and writes the index and HEAD last,
// each by a rename. From the commit on, the context is no longer consulted: the switch finishes, or an I/O
// error undoes it, so the repository is left on the old branch or the new one, never between.
func switchTo(rp *repo.Repo, ctx context.Context, head, target *plumbing.Reference, out *CheckoutOut) error {
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
	plan := makePlan(rp, ctx, wt, ix, cur, tgtFiles, nil)
	if err := ctx.Err(); err != nil {
		return err // planning may have taken an unread file for a changed one: say why it stopped
	}
	if len(plan.unsupported) > 0 {
		return fmt.Errorf("cannot switch to %q with grove; nothing was changed:\n  %s", target.Name().Short(),
			strings.Join(plan.unsupported[:min(len(plan.unsupported), 20)], "\n  "))
	}
	if len(plan.conflicts) > 0 {
		return conflictError(target.Name().Short(), plan.conflicts)
	}
	lock, err := ix.Lock() // held from here, as git holds it: no other writer between our read and our write
	if err != nil {
		return err
	}
	defer lock.Abort()
	tx, err := stageTx(rp, ctx, wt, plan)
	if err != nil {
		return err
	}
	defer tx.close()
	if err := tx.commit(); err != nil {
		return fmt.Errorf("switching to %s failed; the worktree was put back as it was: %w", target.Name().Short(), err)
	}
	tx.setIndex(ix)
	if err := switchRefs(rp, ix, lock, head, target); err != nil {
		if rerr := tx.rollback(); rerr != nil {
			return fmt.Errorf("switching to %s failed: %w; putting the worktree back failed too, the replaced files are in %s: %w",
				target.Name().Short(), err, tx.dir, rerr)
		}
		tx.finish()
		return fmt.Errorf("switching to %s failed; the worktree was put back as it was: %w", target.Name().Short(), err)
	}
	tx.finish()
	_ = gitwrite.AppendReflog(rp, plumbing.HEAD, from, target.Hash(),
		fmt.Sprintf("checkout: moving from %s to %s", headName(head), target.Name().Short())) // best effort
	out.Updated, out.Removed = plan.writes, plan.removes
	return nil
}

// switchRefs writes the index into its held lock and points HEAD at target, renaming the index and then HEAD
// into place. If HEAD cannot be written, the index is put back as it was.
func switchRefs(rp *repo.Repo, ix *gitwrite.IndexFile, lock *gitwrite.LockedFile, head, target *plumbing.Reference) error {
	data, err := ix.Encode()
	if err == nil {
		err = lock.Write(data)
	}
	if err != nil {
		return err
	}
	headLock, err := gitwrite.LockRef(rp, plumbing.NewSymbolicReference(plumbing.HEAD, target.Name()), head)
	if err != nil {
		return err
	}
	defer headLock.Abort()
	if err := fault("index"); err != nil {
		return err
	}
	if err := lock.Commit(); err != nil {
		return err
	}
	rp.Changed()
	err = fault("head")
	if err == nil {
		err = headLock.Commit()
	}
	if err != nil {
		if rerr := ix.Revert(); rerr != nil {
			return fmt.Errorf("%w; restoring the index failed too: %w", err, rerr)
		}
	}
	return err
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

// noBranch explains a missing branch, pointing at a remote-tracking branch of that name if there is one
// ("x" finds origin/x; "origin/x" finds itself).
func noBranch(rp *repo.Repo, name plumbing.ReferenceName) error {
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
