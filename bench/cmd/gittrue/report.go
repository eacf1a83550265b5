package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

func pct(n, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d (%.1f %%)", n, of, 100*float64(n)/float64(of))
}

func ratio(a, b time.Duration) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", float64(a)/float64(b))
}

func (r *result) report(b *strings.Builder) {
	fmt.Fprintf(b, "### %s at %s (%d single-parent commits, seed-sampled; load %s)\n\n", r.repo, r.head[:12], r.commits, benchutil.LoadAvg())
	fmt.Fprintf(b, "| measure | result |\n|---|---|\n")
	fmt.Fprintf(b, "| git_diff patch byte-identical to `git diff A~1 A` | %s |\n", pct(r.patchSame, r.commits))
	fmt.Fprintf(b, "| … with index hashes cut to 7 digits on both sides | %s |\n", pct(r.patchSame7, r.commits))
	fmt.Fprintf(b, "| numstat identical to `git diff --numstat` | %s |\n", pct(r.numstatSame, r.commits))
	fmt.Fprintf(b, "| git_show text byte-identical to `git show A` | %s |\n", pct(r.showSame, r.commits))
	fmt.Fprintf(b, "| patches cut at grove's cap (compared up to the cut) | %d |\n", r.capped)
	fmt.Fprintf(b, "| errors | %d |\n", r.errors)
	fmt.Fprintf(b, "| median git_diff / git diff | %s / %s (%s) |\n", benchutil.Ms(benchutil.Median(r.groveDiff)), benchutil.Ms(benchutil.Median(r.gitDiff)), ratio(benchutil.Median(r.groveDiff), benchutil.Median(r.gitDiff)))
	fmt.Fprintf(b, "| median git_show / git show | %s / %s (%s) |\n", benchutil.Ms(benchutil.Median(r.groveShow)), benchutil.Ms(benchutil.Median(r.gitShow)), ratio(benchutil.Median(r.groveShow), benchutil.Median(r.gitShow)))
	if len(r.bigGrove) > 0 {
		fmt.Fprintf(b, "| HEAD~200..HEAD median of %d, git_diff / git diff (%d / %d files) | %s / %s (%s) |\n", len(r.bigGrove), r.bigFilesGrove, r.bigFilesGit,
			benchutil.Ms(benchutil.Median(r.bigGrove)), benchutil.Ms(benchutil.Median(r.bigGit)), ratio(benchutil.Median(r.bigGrove), benchutil.Median(r.bigGit)))
	}
	if len(r.mismatches) > 0 {
		fmt.Fprintf(b, "\nmismatches: %s\n", strings.Join(headOf(r.mismatches, 30), ", "))
	}
	b.WriteString("\n")
}

func headOf(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "…")
	}
	return s
}
