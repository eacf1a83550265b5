package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

// Targets from the brief: the server's 50 ms debounce plus 10 ms, and twice that.
const (
	p50Target   = 60 * time.Millisecond
	p99Target   = 120 * time.Millisecond
	setupTarget = time.Second
	rssTarget   = 50 << 20
	// maxDelay is the server's cap on holding back a batch during a continuous
	// burst (watch.DefaultMaxDelay): a burst longer than that may rightly give
	// one list_changed per cap interval.
	maxDelay = 300 * time.Millisecond
)

type eraResult struct {
	name    string
	latency latencyResult
	burst   burstResult
}

type report struct {
	cfg     config
	load    [2]string
	version string // grove --version
	eras    []eraResult
	setup   setupResult
}

func (r report) print(w io.Writer, now time.Time) {
	fmt.Fprintf(w, "## grove change notifications over stdio\n\n")
	fmt.Fprintf(w, "%s, %s/%s, %d CPUs, %s; %s; load average %s before, %s after.\n\n",
		now.UTC().Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), r.version, r.load[0], r.load[1])
	if !r.cfg.skipLatency {
		fmt.Fprintf(w, "| latency, write → updated (%d writes) | p50 | p99 | max | lost | extra notifications | p50 < 60 ms | p99 < 120 ms |\n|---|---|---|---|---|---|---|---|\n", r.cfg.writes)
		for _, e := range r.eras {
			l := e.latency
			p50, p99 := benchutil.Percentile(l.lat, 50), benchutil.Percentile(l.lat, 99)
			_, hi := benchutil.Spread(l.lat)
			fmt.Fprintf(w, "| %s | %s | %s | %s | %d | %d | %s | %s |\n", e.name, benchutil.Ms(p50), benchutil.Ms(p99), benchutil.Ms(hi),
				l.lost, l.extras, verdict(l.lost == 0 && p50 < p50Target), verdict(l.lost == 0 && p99 < p99Target))
		}
		fmt.Fprintln(w)
	}
	if !r.cfg.skipBurst {
		fmt.Fprintf(w, "| burst: %d writes over %d subscribed files | subscribe all | writes took | files notified after last write | lost | updated sent | last write → last note | list_changed (no creates) | |\n|---|---|---|---|---|---|---|---|---|\n",
			r.cfg.burst, r.cfg.files)
		for _, e := range r.eras {
			b := e.burst
			lost := b.files - b.notified
			fmt.Fprintf(w, "| %s | %s | %s | %d / %d | %d | %d | %s | %d | %s |\n", e.name,
				benchutil.Ms(b.subscribeTime), benchutil.Ms(b.writeTime), b.notified, b.files, lost, b.updates,
				benchutil.Ms(b.settle), b.listChangedOnW, verdict(lost == 0 && b.listChangedOnW == 0))
			if lost > 0 {
				fmt.Fprintf(w, "\n%s: not notified after their last write, e.g. %q\n\n", e.name, b.missingExamples)
			}
		}
		fmt.Fprintf(w, "\n| %d files created at once | creates took | list_changed | allowed (1 + one per %v cap) | last create → last list_changed | |\n|---|---|---|---|---|---|\n",
			r.cfg.created, maxDelay)
		for _, e := range r.eras {
			b := e.burst
			allowed := 1 + int(b.createTime/maxDelay)
			fmt.Fprintf(w, "| %s | %s | %d | ≤ %d | %s | %s |\n", e.name, benchutil.Ms(b.createTime), b.listChangedOnC, allowed,
				benchutil.Ms(b.createSettle), verdict(b.listChangedOnC >= 1 && b.listChangedOnC <= allowed))
		}
		fmt.Fprintln(w)
	}
	if !r.cfg.skipSetup {
		s := r.setup
		list, sub := benchutil.Median(s.big), benchutil.Median(s.bigSub)
		delta := median(s.bigRSS) - median(s.emptyRSS)
		lo, hi := benchutil.Spread(s.bigSub)
		fmt.Fprintf(w, "| watch set-up, %d files in %d directories (N = %d) | spawn → list_roots answer | spawn → subscribe answer (watches in place) | min–max | server CPU by then | empty root: list_roots | RSS | empty root RSS | RSS delta | < 1 s | < 50 MB |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
			s.files, s.dirs, len(s.big))
		fmt.Fprintf(w, "| legacy | %s | %s | %s–%s | %s | %s | %s | %s | %s | %s | %s |\n\n", benchutil.Ms(list), benchutil.Ms(sub),
			benchutil.Ms(lo), benchutil.Ms(hi), benchutil.Ms(benchutil.Median(s.bigCPU)), benchutil.Ms(benchutil.Median(s.empty)),
			benchutil.MB(median(s.bigRSS)), benchutil.MB(median(s.emptyRSS)), benchutil.MB(delta),
			verdict(sub < setupTarget), verdict(delta < rssTarget))
		if s.watching != "" {
			fmt.Fprintf(w, "list_roots says watching: %s\n\n", s.watching)
		}
	}
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}

func median(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
