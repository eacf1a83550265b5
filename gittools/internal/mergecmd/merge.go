package mergecmd

// git_merge: fast-forward, a merge commit, or a merge stopped on conflicts with git's state files.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/merge"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// Merge runs git_merge (action merge or abort) on rp, which the caller holds locked.
func Merge(rp *repo.Repo, ctx context.Context, in MergeArgs) (Out, error) {
	if in.Action == "abort" {
		return Abort(rp, ctx)
	}
	if in.Revision == "" {
		return Out{}, errors.New("revision is empty: name the branch, tag or commit to merge")
	}
	if err := repo.ValidRevision(in.Revision); err != nil {
		return Out{}, err
	}
	if err := refuseInProgress(rp); err != nil {
		return Out{}, err
	}
	head, hc, err := headRef(rp)
	if err != nil {
		return Out{}, err
	}
	theirs, err := rp.Resolve(in.Revision)
	if err != nil {
		return Out{}, err
	}
	st := Store(rp)
	bases, err := st.Bases(ctx, []plumbing.Hash{hc.Hash}, []plumbing.Hash{theirs})
	if err != nil {
		return Out{}, err
	}
	switch {
	case theirs == hc.Hash || slices.Contains(bases, theirs):
		return Out{Result: ResultUpToDate, Commit: hc.Hash.String()}, nil
	case slices.Contains(bases, hc.Hash) && in.FF != "never":
		return fastForward(rp, ctx, head, hc.Hash, theirs, in.Revision)
	case in.FF == "only":
		return Out{}, errors.New("not possible to fast-forward (ff is only): HEAD is not an ancestor of " + in.Revision)
	case len(bases) == 0 && !in.AllowUnrelatedHistories:
		return Out{}, errors.New("refusing to merge unrelated histories (set allow_unrelated_histories to merge them anyway)")
	}
	return threeWay(rp, ctx, head, hc.Hash, theirs, in)
}

// fastForward moves the branch and the worktree to theirs.
func fastForward(rp *repo.Repo, ctx context.Context, head *plumbing.Reference, from, to plumbing.Hash, rev string) (Out, error) {
	fc, err := rp.Git.CommitObject(from)
	if err != nil {
		return Out{}, err
	}
	tc, err := rp.Git.CommitObject(to)
	if err != nil {
		return Out{}, err
	}
	cur, err := FlatTree(rp, ctx, fc.TreeHash)
	if err != nil {
		return Out{}, err
	}
	ix, err := gitwrite.LoadIndex(rp)
	if err != nil {
		return Out{}, err
	}
	defer ix.Close()
	if u := ix.Unmerged(); len(u) > 0 {
		return Out{}, fmt.Errorf("cannot merge: the index has unmerged paths (%v)", u)
	}
	res := &merge.Result{Tree: tc.TreeHash}
	o, err := ApplyResult(rp, ctx, ix, cur, res, "fast-forward to "+rev)
	if err != nil {
		return Out{}, err
	}
	_ = gitwrite.WriteState(rp, "ORIG_HEAD", []byte(from.String()+"\n"))
	if err := moveHead(rp, head, from, to, "merge "+rev+": Fast-forward"); err != nil {
		return Out{}, err
	}
	return Out{Result: ResultFastForward, Commit: to.String(), Updated: o.Updated, Removed: o.Removed}, nil
}

// threeWay merges theirs into HEAD and commits, or stops on conflicts.
func threeWay(rp *repo.Repo, ctx context.Context, head *plumbing.Reference, ours, theirs plumbing.Hash, in MergeArgs) (Out, error) {
	load := loadIndex(rp) // overlaps the merge; a staged change still refuses it, only later
	defer load.release()
	oc, err := rp.Git.CommitObject(ours)
	if err != nil {
		return Out{}, err
	}
	opts := merge.Options{Labels: merge.Labels{Ours: "HEAD", Theirs: in.Revision}}
	if in.ConflictStyle == "diff3" {
		opts.Style = merge.StyleDiff3
	}
	res, mergeErr := merge.Commits(ctx, Store(rp), ours, theirs, opts, in.AllowUnrelatedHistories)
	ix, err := load.take()
	if err != nil {
		return Out{}, err
	}
	defer ix.Close()
	what := "merge " + in.Revision
	var headFiles map[string]gitwrite.BlobEntry
	if mergeErr == nil && res.Changed != nil && ix.MatchesTree(oc.TreeHash) {
		headFiles = indexFiles(ix, res.Changed) // the index is HEAD's tree: clean, and HEAD's trees need no reading
	} else {
		if headFiles, err = FlatTree(rp, ctx, oc.TreeHash); err != nil {
			return Out{}, err
		}
		if err := RequireCleanIndex(ix, headFiles, what); err != nil {
			return Out{}, err
		}
	}
	if mergeErr != nil {
		return Out{}, mergeErr
	}
	msg := gitwrite.CleanMessage(in.Message)
	if msg == "" {
		msg = DefaultMessage(rp, head, in.Revision) + "\n"
	}
	o, err := ApplyResult(rp, ctx, ix, headFiles, res, what)
	if err != nil {
		return Out{}, err
	}
	ctx = context.WithoutCancel(ctx)
	_ = gitwrite.WriteState(rp, "ORIG_HEAD", []byte(ours.String()+"\n"))
	out := Out{Updated: o.Updated, Removed: o.Removed}
	if len(o.Conflicts) > 0 {
		out.Result, out.Conflicts = ResultConflicts, o.Conflicts
		return out, writeMergeState(rp, theirs, msg, in.FF == "never", o.Conflicts)
	}
	c, err := writeCommit(rp, res.Tree, []plumbing.Hash{ours, theirs}, msg, nil)
	if err != nil {
		return Out{}, err
	}
	if err := moveHead(rp, head, ours, c, "merge "+in.Revision+": Merge made by the 'ort' strategy."); err != nil {
		return Out{}, err
	}
	out.Result, out.Commit = ResultMerged, c.String()
	return out, nil
}

// writeMergeState leaves what `git merge` leaves when it stops on conflicts.
func writeMergeState(rp *repo.Repo, theirs plumbing.Hash, msg string, noFF bool, conflicts []ConflictOut) error {
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString("\n# Conflicts:\n")
	for _, c := range conflicts {
		b.WriteString("#\t" + c.Path + "\n")
	}
	mode := ""
	if noFF {
		mode = "no-ff"
	}
	for _, f := range []struct{ name, data string }{{"MERGE_MSG", b.String()}, {"MERGE_MODE", mode},
		{"MERGE_HEAD", theirs.String() + "\n"}} {
		if err := gitwrite.WriteState(rp, f.name, []byte(f.data)); err != nil {
			return err
		}
	}
	return nil
}

// DefaultMessage is git's merge message for rev (git-fmt-merge-msg(1)): "Merge branch 'x'", "Merge
// remote-tracking branch 'origin/x'", "Merge tag 'v1'" or "Merge commit 'abc'", with " into <branch>" unless
// HEAD's branch is master (merge.suppressDest's default).
func DefaultMessage(rp *repo.Repo, head *plumbing.Reference, rev string) string {
	kind := "commit"
	for _, c := range []struct{ prefix, kind string }{{"refs/heads/", "branch"}, {"refs/remotes/", "remote-tracking branch"}, {"refs/tags/", "tag"}} {
		if _, err := rp.Git.Storer.Reference(plumbing.ReferenceName(c.prefix + rev)); err == nil {
			kind = c.kind
			break
		}
	}
	msg := fmt.Sprintf("Merge %s '%s'", kind, rev)
	switch {
	case head.Type() != plumbing.SymbolicReference:
		msg += " into HEAD"
	case head.Target().Short() != "master":
		msg += " into " + head.Target().Short()
	}
	return msg
}

// indexLoad is gitwrite.LoadIndex running on its own goroutine, so that reading and decoding the index
// overlaps the merge: it reads the index file only, never the object store (go-git is not safe for
// concurrent use).
type indexLoad struct {
	done chan struct{}
	ix   *gitwrite.IndexFile // nil once taken
	err  error
}

func loadIndex(rp *repo.Repo) *indexLoad {
	l := &indexLoad{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		defer func() {
			if v := recover(); v != nil {
				l.ix, l.err = nil, fmt.Errorf("reading the index: %v", v)
			}
		}()
		l.ix, l.err = gitwrite.LoadIndex(rp)
	}()
	return l
}

// take waits for the index; the caller closes it.
func (l *indexLoad) take() (*gitwrite.IndexFile, error) {
	<-l.done
	ix := l.ix
	l.ix = nil
	return ix, l.err
}

// release waits for the goroutine and closes an index nobody took.
func (l *indexLoad) release() {
	<-l.done
	if l.ix != nil {
		l.ix.Close()
		l.ix = nil
	}
}
