package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// spread is "min–max" in ms.
func spread(ds []time.Duration) string {
	if len(ds) == 0 {
		return "–"
	}
	return fmt.Sprintf("%s–%s", fmtMS(slices.Min(ds)), fmtMS(slices.Max(ds)))
}

func fmtMS(d time.Duration) string {
	switch v := ms(d); {
	case v < 10:
		return fmt.Sprintf("%.2f", v)
	case v < 100:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.0f", v)
	}
}

func mb(b int64) string { return fmt.Sprintf("%.0f MB", float64(b)/(1<<20)) }

func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}

// printReport writes the Markdown tables: the main comparison, then details (spread, checks, memory).
func printReport(w io.Writer, cfg config, results []repoResult) {
	host, _ := os.Hostname()
	fmt.Fprintf(w, "Git benchmark, %s UTC, %s, %d CPUs, %s/%s, load average at the end %s; N = %d warm calls each, first call = median of %d fresh grove processes.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04"), host, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, loadAvg(), cfg.n, cfg.first)
	for _, r := range results {
		m := r.meta
		fmt.Fprintf(w, "- **%s**: %d commits, %d files in %d directories; `%s` changed by %d commits; `%s..%s` changes %d paths.\n",
			m.Kind, m.Commits, m.Files, m.Dirs, m.LongPath, m.LongHits, m.DiffA, m.DiffB, m.DiffFiles)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| operation | repo | grove first call ms | grove warm median ms | git median ms | ratio | target | met? | first-call ratio (target) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range results {
		for _, o := range r.ops {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				o.op.name, r.meta.Kind, firstCell(o), groveCell(o), gitCell(o), ratioCell(o), targetCell(o), metCell(o), firstRatioCell(o))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| operation | repo | grove CPU ms/call | git CPU ms/run | CPU ratio | grove warm min–max ms | git min–max ms | grove start-up ms | same work? (grove / git) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range results {
		for _, o := range r.ops {
			check := o.check
			if o.groveErr == "" && o.gitErr == "" {
				check = map[bool]string{true: "yes: ", false: "**NO**: "}[o.checkOK] + check
			}
			cpuRatio := "–"
			if o.groveCPU > 0 && o.gitCPU > 0 {
				cpuRatio = fmt.Sprintf("%.2f×", float64(o.groveCPU)/float64(o.gitCPU))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", o.op.name, r.meta.Kind, cpuCell(o.groveCPU), cpuCell(o.gitCPU),
				cpuRatio, spread(o.grove), spread(o.git), cpuCell(median(o.first.startup)), check)
		}
	}
	fmt.Fprintln(w)
	for _, r := range results {
		var firstRSS int64
		for _, o := range r.ops {
			firstRSS = max(firstRSS, o.first.rss)
		}
		fmt.Fprintf(w, "- %s: grove peak RSS (VmHWM) at the end of the warm session: **%s**; largest after a single first call: %s.\n",
			r.meta.Kind, mb(r.peakRSS), mb(firstRSS))
	}
	for _, r := range results {
		for _, o := range r.ops {
			if o.groveErr != "" || o.first.err != "" || o.gitErr != "" {
				msg := fmt.Sprintf("grove: %s %s; git: %s", o.first.err, o.groveErr, o.gitErr)
				fmt.Fprintf(w, "- %s / %s: %s\n", r.meta.Kind, o.op.name, strings.Join(strings.Fields(msg), " "))
			}
		}
	}
}

func cpuCell(d time.Duration) string {
	if d == 0 {
		return "–"
	}
	return fmtMS(d)
}

func firstCell(o opResult) string {
	if o.first.err != "" {
		return "error"
	}
	return fmtMS(median(o.first.call))
}

func groveCell(o opResult) string {
	if o.groveErr != "" {
		return "error (see below)"
	}
	return fmtMS(median(o.grove))
}

func gitCell(o opResult) string {
	if o.gitErr != "" {
		return "error"
	}
	return fmtMS(median(o.git))
}

func ratio(o opResult) (float64, bool) {
	if o.groveErr != "" || o.gitErr != "" || len(o.grove) == 0 || len(o.git) == 0 {
		return 0, false
	}
	return ms(median(o.grove)) / ms(median(o.git)), true
}

func ratioCell(o opResult) string {
	if v, ok := ratio(o); ok {
		return fmt.Sprintf("%.2f×", v)
	}
	return "–"
}

func targetCell(o opResult) string {
	if o.op.target == 0 {
		return "–"
	}
	return fmt.Sprintf("≤ %.1f×", o.op.target)
}

func metCell(o opResult) string {
	v, ok := ratio(o)
	switch {
	case o.op.target == 0 && ok:
		return "(info)"
	case !ok:
		return "not measured"
	case !o.checkOK:
		return "? (outputs differ)"
	case v <= o.op.target:
		return "yes"
	}
	return "**no**"
}

// firstRatioCell is grove's first call against git's warm median, with the first-call target when there is one.
func firstRatioCell(o opResult) string {
	if o.first.err != "" || len(o.first.call) == 0 || o.gitErr != "" || len(o.git) == 0 {
		return "–"
	}
	v := ms(median(o.first.call)) / ms(median(o.git))
	if o.op.firstTarget == 0 {
		return fmt.Sprintf("%.2f×", v)
	}
	met := "yes"
	if v > o.op.firstTarget {
		met = "**no**"
	}
	return fmt.Sprintf("%.2f× (≤ %.1f×: %s)", v, o.op.firstTarget, met)
}
