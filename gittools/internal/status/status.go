// Package status owns git_status's engine and answer: the branch line with
// upstream ahead/behind counts, staged, unstaged, untracked and conflicted
// entries (with staged renames), built from scan and diff.
//
//	out, err := status.Of(rp, ctx, warm, progress) // warm: a *scan.Warm, or nil for a full scan
//	text := status.Format(out)
package status

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/diff"
	"github.com/grove-mcp/grove/internal/words"

	"github.com/grove-mcp/grove/gittools/internal/scan"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/go-git/go-git/v5/plumbing"
)

// StatusArgs are the arguments of git_status.
type StatusArgs struct {
	RepoPath string `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; required when there are several)"`
}

// StatusOut is the structured result of git_status.
type StatusOut struct {
	Branch       string        `json:"branch" jsonschema:"current branch, or HEAD when detached"`
	Detached     bool          `json:"detached,omitempty"`
	Unborn       bool          `json:"unborn,omitempty" jsonschema:"the branch has no commits yet"`
	Upstream     string        `json:"upstream,omitempty" jsonschema:"the branch's upstream, e.g. origin/main"`
	Ahead        int           `json:"ahead,omitempty" jsonschema:"commits on the branch not on its upstream"`
	Behind       int           `json:"behind,omitempty" jsonschema:"commits on the upstream not on the branch"`
	UpstreamGone bool          `json:"upstream_gone,omitempty" jsonschema:"the upstream is configured but its ref does not exist"`
	Entries      []StatusEntry `json:"entries" jsonschema:"changed, unmerged and untracked paths"`
	Clean        bool          `json:"clean"`
	Total        int           `json:"total" jsonschema:"number of entries before truncation"`
	Truncated    bool          `json:"truncated,omitempty"`
}

// StatusEntry is one line of `git status --short`.
type StatusEntry struct {
	Path     string `json:"path" jsonschema:"slash-separated, relative to the worktree; untracked directories end in /"`
	OrigPath string `json:"orig_path,omitempty" jsonschema:"for a staged rename (identical content): the path before"`
	Index    string `json:"index" jsonschema:"X column: staged change (M A D T U, or space)"`
	Worktree string `json:"worktree" jsonschema:"Y column: unstaged change (M D T A U, or space); ?? for untracked"`
	// Submodule says why a submodule shows M, as git status's long format does.
	Submodule []string `json:"submodule,omitempty" jsonschema:"for a modified submodule: new commits, modified content, untracked content"`
}

// maxStatusEntries caps the entries returned; the rest are counted in a note.
const maxStatusEntries = 1000

// Of computes the full status; with warm not nil, the worktree part comes from (and updates) the state
// kept there, re-examining only what changed since the last call (see scan.Warm).
func Of(rp *repo.Repo, ctx context.Context, warm *scan.Warm, progress func(int)) (StatusOut, error) {
	out := StatusOut{Entries: []StatusEntry{}}
	// The index first: a full scan's lstat of the tracked files starts at once and runs beside the rest
	// (the branch line, HEAD against the index, the ignore rules, the listing of the directories).
	idx, idxErr := rp.Index()
	var pre *scan.Preload
	if idxErr == nil && (warm == nil || !warm.Valid()) {
		pctx, cancel := context.WithCancel(ctx)
		pre = scan.StartPreload(rp, pctx, idx)
		defer func() { // on an early return too, its goroutines end before the caller lets go of the repository
			cancel()
			_, _ = pre.Wait()
		}()
	}
	if err := branchLine(rp, &out); err != nil {
		return out, err
	}
	if !out.Detached && !out.Unborn {
		if err := upstream(rp, ctx, &out); err != nil {
			return out, err
		}
	}
	if idxErr != nil {
		return out, idxErr
	}
	var err error
	var staged map[string]byte
	if warm != nil {
		staged, err = warm.Staged(rp, ctx, idx)
	} else {
		staged, err = scan.Staged(rp, ctx, idx)
	}
	if err != nil {
		return out, err
	}
	var wt *scan.Result
	if warm != nil {
		wt, err = warm.WorktreeWith(rp, ctx, idx, pre, progress)
	} else {
		wt, err = scan.WorktreeWith(rp, ctx, idx, pre, progress)
	}
	if err != nil {
		return out, err
	}
	subs, err := scan.Submodules(rp, ctx, idx, "")
	if err != nil {
		return out, err
	}
	renames, err := diff.StagedRenames(rp, idx, staged)
	if err != nil {
		return out, err
	}
	out.Entries = mergeStatus(idx, staged, wt, renames, subs)
	out.Clean, out.Total = len(out.Entries) == 0, len(out.Entries)
	if len(out.Entries) > maxStatusEntries {
		out.Entries, out.Truncated = out.Entries[:maxStatusEntries], true
	}
	return out, nil
}

// mergeStatus combines the columns, unmerged paths first in path order as git, then untracked.
func mergeStatus(idx *gitfmt.Index, staged map[string]byte, wt *scan.Result, renames map[string]string, subs map[string]scan.SubState) []StatusEntry {
	cols := map[string][2]byte{}
	for p, c := range staged {
		v := cols[p]
		v[0] = c
		cols[p] = v
	}
	for p, c := range wt.Changed {
		v := cols[p]
		v[1] = c
		cols[p] = v
	}
	for p := range subs {
		v := cols[p]
		if v[1] == 0 {
			v[1] = 'M'
		}
		cols[p] = v
	}
	for p, xy := range scan.Unmerged(idx) {
		cols[p] = xy
	}
	paths := make([]string, 0, len(cols))
	for p := range cols {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	out := make([]StatusEntry, 0, len(paths)+len(wt.Untracked))
	for _, p := range paths {
		e := StatusEntry{Path: p, OrigPath: renames[p], Index: col(cols[p][0]), Worktree: col(cols[p][1])}
		if st, ok := subs[p]; ok {
			e.Submodule = subWhy(st)
		}
		out = append(out, e)
	}
	untracked := append([]string(nil), wt.Untracked...)
	sort.Strings(untracked)
	for _, p := range untracked {
		out = append(out, StatusEntry{Path: p, Index: "?", Worktree: "?"})
	}
	return out
}

// subWhy lists what changed in a submodule, in git status's words.
func subWhy(st scan.SubState) []string {
	var why []string
	for _, w := range []struct {
		on   bool
		text string
	}{{st.NewCommits, "new commits"}, {st.Modified, "modified content"}, {st.Untracked, "untracked content"}} {
		if w.on {
			why = append(why, w.text)
		}
	}
	return why
}

func col(c byte) string {
	if c == 0 {
		return " "
	}
	return string(c)
}

// branchLine fills the branch fields from HEAD.
func branchLine(rp *repo.Repo, out *StatusOut) error {
	head, err := rp.Git.Storer.Reference("HEAD")
	if err != nil {
		return fmt.Errorf("reading HEAD: %w", err)
	}
	if head.Type() == plumbing.HashReference {
		out.Branch, out.Detached = "HEAD", true
		return nil
	}
	out.Branch = head.Target().Short()
	if _, err := rp.Git.Storer.Reference(head.Target()); err != nil {
		out.Unborn = true
	}
	return nil
}

// Format renders `git status --short --branch`.
func Format(out StatusOut) string {
	var b strings.Builder
	b.WriteString(branchHeader(out) + "\n")
	for _, e := range out.Entries {
		if e.OrigPath != "" {
			fmt.Fprintf(&b, "%s%s %s -> %s\n", e.Index, e.Worktree, patchtext.QuotePath(e.OrigPath), patchtext.QuotePath(e.Path))
			continue
		}
		fmt.Fprintf(&b, "%s%s %s\n", e.Index, e.Worktree, patchtext.QuotePath(e.Path))
	}
	if out.Clean {
		b.WriteString("nothing to commit, working tree clean\n")
	}
	if out.Truncated {
		n := out.Total - len(out.Entries)
		fmt.Fprintf(&b, "… %d more %s not shown (only the first %d are listed)\n", n, words.Plural(n, "entry", "entries"), len(out.Entries))
	}
	return b.String()
}
