package mergecmd

// git_cherry_pick and git_revert: each revision's change (its diff against its parent, or the reverse) merged
// into HEAD with the merge engine, base the parent (cherry-pick) or the commit itself (revert), and committed
// as git commits it: a cherry-pick keeps the commit's author and message (without git's -x line "(cherry
// picked from commit …)", which git also leaves out by default); a revert says `Revert "<subject>"` and
// `This reverts commit <full hash>.`. A conflict stops the sequence with CHERRY_PICK_HEAD or REVERT_HEAD,
// MERGE_MSG and, for the revisions still to apply, git's sequencer directory.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/merge"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// PickArgs are the arguments of git_cherry_pick and git_revert.
type PickArgs struct {
	RepoPath  string   `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; required when there are several)"`
	Revisions []string `json:"revisions,omitempty" jsonschema:"the commits to apply, in order (required for action apply; at most 100)"`
	Action    string   `json:"action,omitempty" jsonschema:"apply (default); continue (after resolving conflicts and git_add-ing the files: commit and apply the rest); abort (go back to where the sequence started)" enum:"apply,continue,abort"`
	NoCommit  bool     `json:"no_commit,omitempty" jsonschema:"apply the changes to the index and worktree without committing"`
}

// maxRevisions bounds one sequence.
const maxRevisions = 100

// picker runs a cherry-pick or revert sequence.
type picker struct {
	rp       *repo.Repo
	revert   bool
	noCommit bool
	out      Out
}

func (p *picker) verb() string {
	if p.revert {
		return "revert"
	}
	return "cherry-pick"
}

func (p *picker) headFile() string {
	if p.revert {
		return "REVERT_HEAD"
	}
	return "CHERRY_PICK_HEAD"
}

// Pick runs git_cherry_pick (revert false) or git_revert on rp, which the caller holds locked.
func Pick(rp *repo.Repo, ctx context.Context, in PickArgs, revert bool) (Out, error) {
	p := &picker{rp: rp, revert: revert, noCommit: in.NoCommit}
	switch in.Action {
	case "continue":
		return p.continueSeq(ctx)
	case "abort":
		return p.abort(ctx)
	}
	if len(in.Revisions) == 0 {
		return Out{}, errors.New("revisions is empty: name at least one commit")
	}
	if len(in.Revisions) > maxRevisions {
		return Out{}, fmt.Errorf("at most %d revisions at a time", maxRevisions)
	}
	if err := refuseInProgress(rp); err != nil {
		return Out{}, err
	}
	var todo []plumbing.Hash
	for _, r := range in.Revisions {
		if err := repo.ValidRevision(r); err != nil {
			return Out{}, err
		}
		h, err := rp.Resolve(r)
		if err != nil {
			return Out{}, err
		}
		todo = append(todo, h)
	}
	head, _, err := rp.HeadHash()
	if err != nil {
		return Out{}, err
	}
	return p.run(ctx, todo, head, len(todo) > 1)
}

// run applies todo in order; orig is where the sequence started (for abort).
func (p *picker) run(ctx context.Context, todo []plumbing.Hash, orig plumbing.Hash, sequence bool) (Out, error) {
	for i, h := range todo {
		c, err := p.rp.Git.CommitObject(h)
		if err != nil {
			return p.out, err
		}
		conflicts, err := p.step(ctx, c)
		if err != nil {
			if len(p.out.Picked) > 0 {
				err = fmt.Errorf("%w (commits made before this one stay: %s)", err, strings.Join(p.out.Picked, ", "))
			}
			return p.out, err
		}
		if len(conflicts) == 0 {
			// The first commit is applied: from here a cancelled request would leave the sequence half
			// done, so it runs to its end or to a conflict (each step is bounded; at most maxRevisions).
			ctx = context.WithoutCancel(ctx)
			continue
		}
		p.out.Result, p.out.Conflicts = ResultConflicts, conflicts
		for _, r := range todo[i+1:] {
			p.out.Remaining = append(p.out.Remaining, r.String())
		}
		return p.out, p.stop(c, conflicts, todo[i:], orig, sequence)
	}
	if p.out.Result == "" {
		p.out.Result = ResultMerged
	}
	if err := gitwrite.RemoveState(p.rp, "sequencer"); err != nil {
		return p.out, err
	}
	if head, _, err := p.rp.HeadHash(); err == nil {
		p.out.Commit = head.String()
	}
	return p.out, nil
}

// label is how git names a commit in conflict markers: abbreviated hash and subject.
func label(c *object.Commit) string {
	return fmt.Sprintf("%s (%s)", c.Hash.String()[:7], repo.FirstLineOf(c.Message))
}

// step applies one commit's change; it returns the conflicts, or commits (unless noCommit).
func (p *picker) step(ctx context.Context, c *object.Commit) ([]ConflictOut, error) {
	if c.NumParents() > 1 {
		return nil, fmt.Errorf("%s is a merge commit; grove does not %s merges (no mainline option)", c.Hash.String()[:7], p.verb())
	}
	var parentTree plumbing.Hash
	if c.NumParents() == 1 {
		pc, err := c.Parent(0)
		if err != nil {
			return nil, err
		}
		parentTree = pc.TreeHash
	}
	head, hc, err := headRef(p.rp)
	if err != nil {
		return nil, err
	}
	ix, err := gitwrite.LoadIndex(p.rp)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	ours, cur, err := p.oursTree(ctx, ix, hc)
	if err != nil {
		return nil, err
	}
	opts := merge.Options{Labels: merge.Labels{Ours: "HEAD", Theirs: label(c), Base: "parent of " + label(c)}}
	base, theirs := parentTree, c.TreeHash
	if p.revert {
		base, theirs = c.TreeHash, parentTree
		opts.Labels.Theirs, opts.Labels.Base = opts.Labels.Base, opts.Labels.Theirs
	}
	res, err := merge.Trees(ctx, Store(p.rp), base, ours, theirs, opts)
	if err != nil {
		return nil, err
	}
	o, err := ApplyResult(p.rp, ctx, ix, cur, res, p.verb()+" "+c.Hash.String()[:7])
	if err != nil {
		return nil, err
	}
	p.out.Updated, p.out.Removed = append(p.out.Updated, o.Updated...), append(p.out.Removed, o.Removed...)
	if len(o.Conflicts) > 0 || p.noCommit {
		return o.Conflicts, nil
	}
	if res.Tree == hc.TreeHash {
		return nil, fmt.Errorf("%s %s would make an empty commit: its change is already in HEAD", p.verb(), c.Hash.String()[:7])
	}
	return nil, p.commitMsg(context.WithoutCancel(ctx), head, hc.Hash, res.Tree, c, p.message(c))
}

// oursTree is what the change is applied to: HEAD's tree (the index must match it), or with noCommit the
// index as it stands.
func (p *picker) oursTree(ctx context.Context, ix *gitwrite.IndexFile, hc *object.Commit) (plumbing.Hash, map[string]gitwrite.BlobEntry, error) {
	headFiles, err := FlatTree(p.rp, ctx, hc.TreeHash)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	if !p.noCommit {
		return hc.TreeHash, headFiles, RequireCleanIndex(ix, headFiles, p.verb())
	}
	if u := ix.Unmerged(); len(u) > 0 {
		return plumbing.ZeroHash, nil, fmt.Errorf("cannot %s: the index has unmerged paths (%v)", p.verb(), u)
	}
	tree, err := gitwrite.WriteTree(p.rp, ix.All())
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	files, err := FlatTree(p.rp, ctx, tree)
	return tree, files, err
}

// message is the commit message of c's cherry-pick or revert.
func (p *picker) message(c *object.Commit) string {
	if !p.revert {
		return c.Message
	}
	return fmt.Sprintf("Revert %q\n\nThis reverts commit %s.\n", repo.FirstLineOf(c.Message), c.Hash)
}
