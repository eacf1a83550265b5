package mergecmd

// Stopping a cherry-pick or revert on conflicts, continuing it once they are resolved, and aborting it.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/merge"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
)

// stop leaves the state git leaves when a pick stops on conflicts; todo starts with c.
func (p *picker) stop(c *object.Commit, conflicts []ConflictOut, todo []plumbing.Hash, orig plumbing.Hash, sequence bool) error {
	var msg strings.Builder
	msg.WriteString(p.message(c))
	msg.WriteString("\n# Conflicts:\n")
	for _, cf := range conflicts {
		msg.WriteString("#\t" + cf.Path + "\n")
	}
	files := []struct{ name, data string }{{"MERGE_MSG", msg.String()}}
	if !p.noCommit {
		files = append(files, struct{ name, data string }{p.headFile(), c.Hash.String() + "\n"})
	}
	if sequence {
		var t strings.Builder
		for _, h := range todo {
			subject := ""
			if tc, err := p.rp.Git.CommitObject(h); err == nil {
				subject = " " + gitwrite.SummaryLine(tc.Message)
			}
			fmt.Fprintf(&t, "%s %s%s\n", map[bool]string{false: "pick", true: "revert"}[p.revert], h, subject)
		}
		head, _, _ := p.rp.HeadHash()
		opts := ""
		if p.noCommit {
			opts = "[options]\n\tno-commit = true\n"
		}
		files = append(files, struct{ name, data string }{"sequencer/todo", t.String()},
			struct{ name, data string }{"sequencer/head", orig.String() + "\n"},
			struct{ name, data string }{"sequencer/abort-safety", head.String() + "\n"},
			struct{ name, data string }{"sequencer/opts", opts})
	}
	for _, f := range files {
		if err := gitwrite.WriteState(p.rp, f.name, []byte(f.data)); err != nil {
			return err
		}
	}
	return nil
}

// sequence reads the sequencer's todo list and starting point (none: a single pick).
func (p *picker) sequence() (todo []plumbing.Hash, orig plumbing.Hash, ok bool, err error) {
	data, ok, err := gitwrite.ReadState(p.rp, "sequencer/todo")
	if err != nil || !ok {
		return nil, orig, false, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		h, err := p.rp.Resolve(f[1])
		if err != nil {
			return nil, orig, true, fmt.Errorf("sequencer/todo names %q: %w", f[1], err)
		}
		todo = append(todo, h)
	}
	heads, _, err := readHashes(p.rp, "sequencer/head")
	if err != nil {
		return nil, orig, true, err
	}
	if len(heads) == 1 {
		orig = heads[0]
	}
	if opts, _, _ := gitwrite.ReadState(p.rp, "sequencer/opts"); strings.Contains(string(opts), "no-commit = true") {
		p.noCommit = true
	}
	return todo, orig, true, nil
}

// continueSeq commits the resolved pick and applies the rest of the sequence.
func (p *picker) continueSeq(ctx context.Context) (Out, error) {
	cur, inPick, err := readHashes(p.rp, p.headFile())
	if err != nil {
		return Out{}, err
	}
	todo, orig, inSeq, err := p.sequence()
	if err != nil {
		return Out{}, err
	}
	if !inPick && !inSeq {
		return Out{}, fmt.Errorf("there is no %s in progress to continue", p.verb())
	}
	if inPick {
		if err := p.commitResolved(ctx, cur[0]); err != nil {
			return Out{}, err
		}
		if len(todo) > 0 && todo[0] == cur[0] {
			todo = todo[1:]
		}
	}
	return p.run(ctx, todo, orig, inSeq)
}

// commitResolved commits the index for the stopped pick of h, once no path is unmerged.
func (p *picker) commitResolved(ctx context.Context, h plumbing.Hash) error {
	c, err := p.rp.Git.CommitObject(h)
	if err != nil {
		return err
	}
	ix, err := gitwrite.LoadIndex(p.rp)
	if err != nil {
		return err
	}
	defer ix.Close()
	if u := ix.Unmerged(); len(u) > 0 {
		return fmt.Errorf("cannot continue: these paths are still unmerged (edit them, then git_add them): %s", strings.Join(u, ", "))
	}
	head, hc, err := headRef(p.rp)
	if err != nil {
		return err
	}
	tree, err := gitwrite.WriteTree(p.rp, ix.All())
	if err != nil {
		return err
	}
	if !p.noCommit && tree != hc.TreeHash {
		data, _, err := gitwrite.ReadState(p.rp, "MERGE_MSG")
		if err != nil {
			return err
		}
		msg := StripComments(string(data))
		if msg == "" {
			msg = p.message(c)
		}
		if err := p.commitMsg(ctx, head, hc.Hash, tree, c, msg); err != nil {
			return err
		}
	}
	return gitwrite.RemoveState(p.rp, p.headFile(), "MERGE_MSG")
}

// commitMsg commits tree with msg for c (a cherry-pick keeps c's author).
func (p *picker) commitMsg(ctx context.Context, head *plumbing.Reference, parent, tree plumbing.Hash, c *object.Commit, msg string) error {
	var author *object.Signature
	if !p.revert {
		author = &c.Author
	}
	h, err := writeCommit(p.rp, tree, []plumbing.Hash{parent}, msg, author)
	if err != nil {
		return err
	}
	if err := moveHead(p.rp, head, parent, h, p.verb()+": "+gitwrite.SummaryLine(msg)); err != nil {
		return err
	}
	p.out.Picked = append(p.out.Picked, h.String())
	return nil
}

// abort drops the stopped pick's changes and moves HEAD back to where the sequence started.
func (p *picker) abort(ctx context.Context) (Out, error) {
	_, inPick, err := readHashes(p.rp, p.headFile())
	if err != nil {
		return Out{}, err
	}
	_, orig, inSeq, err := p.sequence()
	if err != nil {
		return Out{}, err
	}
	if !inPick && !inSeq {
		return Out{}, fmt.Errorf("there is no %s in progress to abort", p.verb())
	}
	if err := resetMerge(p.rp, ctx, "abort the "+p.verb()); err != nil {
		return Out{}, err
	}
	head, hc, err := headRef(p.rp)
	if err != nil {
		return Out{}, err
	}
	if !orig.IsZero() && orig != hc.Hash {
		if err := p.moveBack(ctx, head, hc, orig); err != nil {
			return Out{}, err
		}
	}
	if err := gitwrite.RemoveState(p.rp, p.headFile(), "MERGE_MSG", "sequencer"); err != nil {
		return Out{}, err
	}
	now, _, err := p.rp.HeadHash()
	return Out{Result: ResultAborted, Commit: now.String()}, err
}

// moveBack returns the branch, index and worktree from hc to orig (the commits the sequence made go).
func (p *picker) moveBack(ctx context.Context, head *plumbing.Reference, hc *object.Commit, orig plumbing.Hash) error {
	oc, err := p.rp.Git.CommitObject(orig)
	if err != nil {
		return err
	}
	ix, err := gitwrite.LoadIndex(p.rp)
	if err != nil {
		return err
	}
	defer ix.Close()
	cur, err := FlatTree(p.rp, ctx, hc.TreeHash)
	if err != nil {
		return err
	}
	if _, err := ApplyResult(p.rp, ctx, ix, cur, &merge.Result{Tree: oc.TreeHash}, "abort the "+p.verb()); err != nil {
		if errors.Is(err, writecmd.ErrLocalChanges) {
			return fmt.Errorf("%w (the commits the %s made stay; HEAD is %s)", err, p.verb(), hc.Hash.String()[:7])
		}
		return err
	}
	return moveHead(p.rp, head, hc.Hash, orig, p.verb()+": abort")
}
