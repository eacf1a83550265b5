package diff

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/scan"
	"github.com/grove-mcp/grove/internal/words"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"
)

// Render loads and encodes changes into a patch (or a stat listing), cut at maxPatchBytes.
func Render(rp *repo.Repo, ctx context.Context, changes []change, ctxLines int, statOnly bool) (DiffOut, string, error) {
	out := DiffOut{Files: []DiffFile{}}
	var patch, one bytes.Buffer
	var omitted []string
	var cutFile string // the one file whose patch was cut, when the first file alone passes the cap
	// Files past the cap are still counted (their added and deleted lines), while the content read for
	// them stays under maxCountBytes: a huge range costs a bounded amount more than its shown part.
	countBudget := maxCountBytes
	drv := newDrivers(rp)
	format := patchtext.Format{Context: ctxLines, Abbrev: rp.Abbrever().Abbrev, Driver: drv.funcLine}
	for i, c := range changes {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return out, "", err
			}
		}
		f := DiffFile{Path: c.path, OldPath: c.oldPath, Status: statusOf(c)}
		if out.Truncated && !statOnly && countBudget <= 0 {
			f.Omitted = true // neither shown nor counted
			out.Files = append(out.Files, f)
			omitted = append(omitted, c.path)
			continue
		}
		fp, err := load(rp, ctx, c)
		if err != nil && out.Truncated && !statOnly {
			countBudget = 0 // counting is a courtesy past the cap: an unreadable file ends it, not the answer
			f.Omitted = true
			out.Files = append(out.Files, f)
			omitted = append(omitted, c.path)
			continue
		}
		if err != nil {
			return out, "", fmt.Errorf("reading %s: %w", patchtext.QuotePath(c.path), err)
		}
		if out.Truncated {
			countBudget -= len(fp.From.Data) + len(fp.To.Data)
		}
		if fp.From.Mode == fp.To.Mode && fp.From.Hash == fp.To.Hash && c.oldPath == "" && !fp.To.Dirty {
			continue // stat-dirty but unchanged
		}
		fp.Binary = drv.binary(c.path)
		one.Reset()
		format.CountOnly = statOnly || out.Truncated
		st := patchtext.WriteFilePatch(&one, fp, format)
		f.Added, f.Deleted, f.Binary, f.TooLarge = st.Added, st.Deleted, st.Binary, st.TooLarge
		switch {
		case statOnly:
		case out.Truncated: // counted, not shown
			f.Omitted = true
			omitted = append(omitted, c.path)
		case patch.Len()+one.Len() <= MaxPatchBytes:
			patch.Write(one.Bytes())
		case patch.Len() > 0:
			out.Truncated, f.Omitted = true, true
			omitted = append(omitted, c.path)
		default: // the first file alone passes the cap: its start, to a line end
			cut := one.Bytes()[:MaxPatchBytes]
			patch.Write(cut[:bytes.LastIndexByte(cut, '\n')+1])
			out.Truncated, cutFile = true, c.path
		}
		out.Files = append(out.Files, f)
	}
	if statOnly {
		return out, formatStat(out.Files), nil
	}
	text := patch.String()
	if out.Truncated {
		note := fmt.Sprintf("\n… patch cut at %d KB", MaxPatchBytes>>10)
		if cutFile != "" {
			note += " inside " + patchtext.QuotePath(cutFile)
		}
		if len(omitted) > 0 {
			note += fmt.Sprintf(": %d more %s not shown (%s)", len(omitted), words.Plural(len(omitted), "file", "files"), strings.Join(headOf(omitted, 20), ", "))
		}
		if len(omitted) == 0 {
			text += note + "; read the file itself, or ask for fewer context_lines\n"
		} else {
			text += note + "; pass path to see one file, or stat_only=true for the list\n"
		}
	}
	out.Patch = text
	return out, text, nil
}

// maxCountBytes bounds the content read to count the lines of files past the patch cap.
const maxCountBytes = 4 << 20

func statusOf(c change) string {
	switch {
	case c.oldPath != "":
		return "R"
	case c.from.mode == 0:
		return "A"
	case c.to.mode == 0 && !c.to.wt:
		return "D"
	case !c.to.wt && scan.Kind(c.from.mode) != scan.Kind(c.to.mode):
		return "T"
	}
	return "M"
}

func headOf(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "…")
	}
	return s
}

// formatStat renders a `git diff --stat`-like listing.
func formatStat(files []DiffFile) string {
	if len(files) == 0 {
		return ""
	}
	width := 0
	for _, f := range files {
		width = max(width, len(patchtext.QuotePath(f.Path)))
	}
	var b strings.Builder
	var add, del int
	for _, f := range files {
		fmt.Fprintf(&b, " %-*s | ", width, patchtext.QuotePath(f.Path))
		if f.Binary {
			b.WriteString("Bin\n")
			continue
		}
		if f.TooLarge {
			b.WriteString("not diffed: over --max-file-size\n")
			continue
		}
		n := f.Added + f.Deleted
		plus, minus := f.Added, f.Deleted
		if n > 50 {
			plus, minus = f.Added*50/n, f.Deleted*50/n
		}
		fmt.Fprintf(&b, "%d %s%s\n", n, strings.Repeat("+", plus), strings.Repeat("-", minus))
		add, del = add+f.Added, del+f.Deleted
	}
	fmt.Fprintf(&b, " %s changed, %s(+), %s(-)\n", words.Count(len(files), "file", "files"),
		words.Count(add, "insertion", "insertions"), words.Count(del, "deletion", "deletions"))
	return b.String()
}
