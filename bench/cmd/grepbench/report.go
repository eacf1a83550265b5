package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

// report prints the Markdown table: medians, the grove/rg ratio against
// the 1.5x goal, and whether the match sets agree.
func report(w io.Writer, grove, dir string, reps int, load0 string, rows []row) {
	fmt.Fprintf(w, "grep on %s; grove %s; %s; %d reps; first grep %v after initialize; load average %s before, %s after\n\n",
		dir, benchutil.Version(grove), time.Now().UTC().Format("2006-01-02 15:04 UTC"), reps, settle, load0, benchutil.LoadAvg())
	var peak int64
	for _, r := range rows {
		peak = max(peak, r.peak)
	}
	fmt.Fprintf(w, "grove's peak RSS after a first (cold) grep: %s at most (VmHWM)\n\n", benchutil.MB(peak))
	fmt.Fprintln(w, "| class | pattern | grove cold (median) | rg (median) | git grep -P (median) | grove/rg | goal ≤ 1.5x | CPU grove / rg | CPU ratio | grove warm (CPU) | lines | same lines as rg |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		g, rg := benchutil.Median(r.grove), benchutil.Median(r.rg)
		ratio := float64(g) / float64(rg)
		gc, rc := benchutil.Median(r.gCPU), benchutil.Median(r.rCPU)
		fmt.Fprintf(w, "| %s | `%s` | %s | %s | %s | %.2fx | %s | %s / %s | %.2fx | %s (%s) | %d | %s |\n", r.class, strings.ReplaceAll(r.expr, "|", `\|`),
			benchutil.Ms(g), benchutil.Ms(rg), benchutil.Ms(benchutil.Median(r.gg)), ratio, benchutil.Verdict(ratio, 1.5),
			benchutil.Ms(gc), benchutil.Ms(rc), float64(gc)/float64(rc), benchutil.Ms(benchutil.Median(r.warm)), benchutil.Ms(benchutil.Median(r.warmCPU)), r.lines, r.same)
	}
}
