package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

// Targets: grove/reference at most.
var (
	toolTargets   = [numOps]float64{0.33, 0.5, 0.1, 0.33, 0} // 0: for information
	startupTarget = 0.1
	peakTarget    = 0.33
)

const resourcePeakLimit = 200 << 20

type report struct {
	n         int
	load      [2]string // 1-minute load average before and after
	version   string    // grove --version
	startup   startupResult
	tools     toolResult
	resources resourceResult
}

func (r report) print(w io.Writer, now time.Time) {
	fmt.Fprintf(w, "## grove vs @modelcontextprotocol/server-filesystem\n\n")
	fmt.Fprintf(w, "%s, %s/%s, %d CPUs, %s; %s; load average %s before, %s after; N = %d per cell; protocol grove %s, reference %s.\n\n",
		now.UTC().Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(),
		r.version, r.load[0], r.load[1], r.n, r.startup.protocol[0], r.startup.protocol[1])
	fmt.Fprintln(w, "| measure | grove median | reference median | grove/ref | target | | grove min–max | ref min–max | grove 1st call | ref 1st call | grove CPU | ref CPU | CPU grove/ref |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	scpu := [2]time.Duration{benchutil.Median(r.startup.cpu[0]), benchutil.Median(r.startup.cpu[1])}
	r.row(w, "start-up (spawn → initialize answer)", r.startup.times, startupTarget, [2]time.Duration{}, scpu)
	for i, o := range ops {
		if len(r.tools.times[i][0]) == 0 {
			continue // skipped
		}
		r.row(w, o.name, r.tools.times[i], toolTargets[i], r.tools.first[i], r.tools.cpu[i])
	}
	idle := [2]int64{medianInt(r.startup.idle[0]), medianInt(r.startup.idle[1])}
	fmt.Fprintf(w, "| idle RSS after start-up (VmRSS) | %s | %s | %.2f | – | | | | | | | | |\n",
		benchutil.MB(idle[0]), benchutil.MB(idle[1]), float64(idle[0])/float64(idle[1]))
	pr := float64(r.tools.peak[0]) / float64(r.tools.peak[1])
	fmt.Fprintf(w, "| peak RSS after the session (VmHWM) | %s | %s | %.2f | ≤ %.2f | %s | | | | | | | |\n\n",
		benchutil.MB(r.tools.peak[0]), benchutil.MB(r.tools.peak[1]), pr, peakTarget, benchutil.Verdict(pr, peakTarget))
	fmt.Fprintf(w, "Wall times are medians of N calls, interleaved; CPU is the server process's CPU time (all threads, from /proc/PID/task/*/schedstat) per call, mean over the N calls (for start-up: median CPU used by the initialize answer). CPU does not grow with the machine's load; wall time does.\n\n")
	globRan := len(r.tools.times[2][0]) > 0
	switch {
	case globRan && r.tools.sameSet:
		fmt.Fprintf(w, "Glob: both servers returned the same %d paths for `**/*.txt`.\n\n", benchutil.GlobMatching)
	case globRan:
		fmt.Fprintf(w, "Glob: the answers differ: %s.\n\n", r.tools.setDiff)
	}
	if len(r.resources.times) > 0 {
		rr := r.resources
		peak := slices.Max(rr.peak)
		fmt.Fprintf(w, "| grove resources/list, %d files | median | min–max | server CPU (median) | pages | peak RSS (max of %d) | target | |\n|---|---|---|---|---|---|---|---|\n",
			rr.files, len(rr.times))
		lo, hi := benchutil.Spread(rr.times)
		fmt.Fprintf(w, "| paginated to the end | %s | %s–%s | %s | %d | %s | < 200 MB | %s |\n\n",
			benchutil.Ms(benchutil.Median(rr.times)), benchutil.Ms(lo), benchutil.Ms(hi), benchutil.Ms(benchutil.Median(rr.cpu)), rr.pages, benchutil.MB(peak),
			benchutil.Verdict(float64(peak), resourcePeakLimit))
	}
}

func (r report) row(w io.Writer, name string, ts [2][]time.Duration, target float64, first, cpu [2]time.Duration) {
	g, f := benchutil.Median(ts[0]), benchutil.Median(ts[1])
	ratio := float64(g) / float64(f)
	glo, ghi := benchutil.Spread(ts[0])
	flo, fhi := benchutil.Spread(ts[1])
	firsts := "| – | –"
	if first[0] != 0 {
		firsts = fmt.Sprintf("| %s | %s", benchutil.Ms(first[0]), benchutil.Ms(first[1]))
	}
	goal, verdict := fmt.Sprintf("≤ %.2f", target), benchutil.Verdict(ratio, target)
	if target == 0 {
		goal, verdict = "–", "(info)"
	}
	fmt.Fprintf(w, "| %s | %s | %s | %.3f | %s | %s | %s–%s | %s–%s %s | %s | %s | %.3f |\n", name,
		benchutil.Ms(g), benchutil.Ms(f), ratio, goal, verdict,
		benchutil.Ms(glo), benchutil.Ms(ghi), benchutil.Ms(flo), benchutil.Ms(fhi), firsts,
		benchutil.Ms(cpu[0]), benchutil.Ms(cpu[1]), float64(cpu[0])/float64(cpu[1]))
}

func medianInt(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
