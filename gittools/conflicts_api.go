package gittools

// Conflicts serves the resolve_conflicts prompt (through prompts.ConflictSource; prompts does not import
// gittools): every conflicted path of a stopped merge, cherry-pick, revert or stash apply, with each conflicted
// hunk showing ours, the base and theirs (diff3 style, recomputed from the index stages).

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/merge"
	"github.com/grove-mcp/grove/gittools/internal/mergecmd"
	"github.com/grove-mcp/grove/roots"
)

const (
	maxConflictFiles = 50      // conflicted files described; the rest are counted
	conflictContext  = 3       // unchanged lines shown around each hunk
	maxConflictBlob  = 1 << 20 // larger versions are described, not merged
)

// Conflicts describes the conflicts in repoPath's repository ("" when there are none).
func (r *Repos) Conflicts(ctx context.Context, sc *roots.Scope, repoPath string) (string, error) {
	rp, unlock, err := r.open(ctx, sc, repoPath)
	if err != nil {
		return "", err
	}
	defer unlock()
	ix, err := gitwrite.LoadIndex(rp)
	if err != nil {
		return "", err
	}
	defer ix.Close()
	paths := ix.Unmerged()
	if len(paths) == 0 {
		return "", nil
	}
	op, _ := mergecmd.InProgress(rp)
	if op == "" {
		op = "stash apply or an operation of another tool"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Operation in progress: %s. %d conflicted path(s).\n", op, len(paths))
	st := &merge.Store{S: rp.Git.Storer, MaxBlob: maxConflictBlob}
	for i, p := range paths {
		if i == maxConflictFiles {
			fmt.Fprintf(&b, "\n… and %d more conflicted paths (git_status lists them all).\n", len(paths)-i)
			break
		}
		if err := ctx.Err(); err != nil {
			return "", err
		}
		describeConflict(&b, st, p, ix.ByName[p])
	}
	return b.String(), nil
}

// describeConflict writes one path's stages and, for text on both sides, its conflicted hunks.
func describeConflict(b *strings.Builder, st *merge.Store, p string, entries []*index.Entry) {
	var data [3][]byte
	var have [3]bool
	for _, e := range entries {
		if e.Stage < 1 || e.Stage > 3 {
			continue
		}
		have[e.Stage-1] = true
		d, err := st.Blob(e.Hash)
		if err != nil {
			fmt.Fprintf(b, "\n=== %s: cannot read the %s version (%v)\n", p, stageName(int(e.Stage)), err)
			return
		}
		data[e.Stage-1] = d
	}
	switch {
	case !have[1] || !have[2]:
		gone, kept := "ours (HEAD)", "theirs"
		if !have[2] {
			gone, kept = "theirs", "ours (HEAD)"
		}
		fmt.Fprintf(b, "\n=== %s: deleted in %s, changed in %s. Keep the file (git_add it) or delete it (delete the file, then git_add it).\n", p, gone, kept)
		return
	case isBinaryData(data[1]) || isBinaryData(data[2]):
		fmt.Fprintf(b, "\n=== %s: binary file changed on both sides; the worktree holds ours. Pick a version, then git_add it.\n", p)
		return
	}
	res := merge.MergeText(data[0], data[1], data[2], merge.StyleDiff3, merge.Labels{Base: "base", Ours: "ours (HEAD)", Theirs: "theirs"})
	fmt.Fprintf(b, "\n=== %s: %d conflicted hunk(s)", p, res.Conflicts)
	if !have[0] {
		b.WriteString(" (added on both sides: the base is empty)")
	}
	b.WriteString("\n")
	writeHunks(b, strings.SplitAfter(string(res.Data), "\n"))
}

// writeHunks writes each marked region of lines with a few lines around it.
func writeHunks(b *strings.Builder, lines []string) {
	n := 0
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "<<<<<<< ") {
			continue
		}
		end := i
		for end < len(lines) && !strings.HasPrefix(lines[end], ">>>>>>> ") {
			end++
		}
		n++
		fmt.Fprintf(b, "--- hunk %d (line %d of this diff3 view; the file itself has the merge-style markers)\n", n, i+1)
		for _, l := range lines[max(0, i-conflictContext):min(len(lines), end+1+conflictContext)] {
			b.WriteString(l)
			if !strings.HasSuffix(l, "\n") {
				b.WriteString("\n")
			}
		}
		i = end
	}
}

func stageName(s int) string { return [...]string{"", "base", "ours", "theirs"}[s] }

func isBinaryData(d []byte) bool { return strings.IndexByte(string(d[:min(len(d), 8000)]), 0) >= 0 }
