// Package stashcmd owns git_stash: stashes made and read exactly as git makes them, so that the git
// program and grove read each other's. A stash is a commit W of the worktree's tracked files whose parents
// are HEAD, a commit I of the index (parent HEAD) and, with untracked files, a parentless commit U of those;
// refs/stash points at the newest W and its reflog (logs/refs/stash) lists them all, newest last, as
// stash@{0}, stash@{1}, … from the end (git-stash(1)).
//
//	out, err := stashcmd.Run(rp, ctx, stashcmd.Args{Action: "push", Message: "wip"})
package stashcmd

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

const (
	stashRef = "refs/stash"
	stashLog = "logs/refs/stash"
	// maxLog bounds the stash reflog read (about 40,000 stashes).
	maxLog = 8 << 20
)

// entry is one line of the stash reflog.
type entry struct {
	old, new plumbing.Hash
	ident    string // "Name <email> time zone"
	msg      string
}

func (e entry) line() string {
	return fmt.Sprintf("%s %s %s\t%s\n", e.old, e.new, e.ident, e.msg)
}

// readLog returns the stash entries, oldest first.
func readLog(rp *repo.Repo) ([]entry, error) {
	data, ok, err := gitwrite.ReadCommonState(rp, stashLog, maxLog)
	if err != nil || !ok {
		return nil, err
	}
	var out []entry
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" {
			continue
		}
		head, msg, _ := strings.Cut(l, "\t")
		f := strings.SplitN(head, " ", 3)
		if len(f) < 3 || !plumbing.IsHash(f[0]) || !plumbing.IsHash(f[1]) {
			return nil, fmt.Errorf("logs/refs/stash has a malformed line: %q", l[:min(len(l), 80)])
		}
		out = append(out, entry{old: plumbing.NewHash(f[0]), new: plumbing.NewHash(f[1]), ident: f[2], msg: msg})
	}
	return out, nil
}

// pick returns the position in es (oldest first) of stash@{n}.
func pick(es []entry, n int) (int, error) {
	if n < 0 || n >= len(es) {
		if len(es) == 0 {
			return 0, fmt.Errorf("no stash entries")
		}
		return 0, fmt.Errorf("stash@{%d} does not exist (there are %d stashes: stash@{0} to stash@{%d})", n, len(es), len(es)-1)
	}
	return len(es) - 1 - n, nil
}

// push records w as the newest stash: refs/stash and a reflog line.
func push(rp *repo.Repo, w plumbing.Hash, msg string) error {
	es, err := readLog(rp)
	if err != nil {
		return err
	}
	var old *plumbing.Reference
	prev := plumbing.ZeroHash
	if r, err := rp.Git.Storer.Reference(stashRef); err == nil {
		old, prev = r, r.Hash()
	}
	sig, err := gitwrite.Signature(rp, "committer", nowFunc())
	if err != nil {
		return err
	}
	e := entry{old: prev, new: w, msg: strings.NewReplacer("\n", " ").Replace(msg),
		ident: fmt.Sprintf("%s <%s> %d %s", sig.Name, sig.Email, sig.When.Unix(), sig.When.Format("-0700"))}
	if err := writeLog(rp, append(es, e)); err != nil {
		return err
	}
	return gitwrite.UpdateRef(rp, plumbing.NewHashReference(stashRef, w), old)
}

// writeLog replaces the stash reflog.
func writeLog(rp *repo.Repo, es []entry) error {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(e.line())
	}
	return gitwrite.WriteCommonState(rp, stashLog, []byte(b.String()))
}

// drop removes stash@{n}: refs/stash then names the newest remaining stash, or goes with its log.
func drop(rp *repo.Repo, n int) (entry, error) {
	es, err := readLog(rp)
	if err != nil {
		return entry{}, err
	}
	i, err := pick(es, n)
	if err != nil {
		return entry{}, err
	}
	gone := es[i]
	es = append(es[:i], es[i+1:]...)
	cur, err := rp.Git.Storer.Reference(stashRef)
	if err != nil {
		return entry{}, fmt.Errorf("reading refs/stash: %w", err)
	}
	if len(es) == 0 {
		return gone, gitwrite.RemoveCommonState(rp, stashRef, stashLog)
	}
	if i < len(es) {
		es[i].old = gone.old // the entry after the dropped one now follows the one before it
	}
	if err := writeLog(rp, es); err != nil {
		return entry{}, err
	}
	return gone, gitwrite.UpdateRef(rp, plumbing.NewHashReference(stashRef, es[len(es)-1].new), cur)
}
