// Command httpbench measures grove over Streamable HTTP: requests per second
// and p50/p99 latency of resources/read of a 4 KiB file and of git_status,
// with 1, 8 and 64 concurrent sessions, and the same over stdio (one
// session) beside them. Each session is a go-sdk client on protocol
// 2025-11-25 (HTTP: a legacy session with Mcp-Session-Id) that sends its next
// request when the last is answered; a cell runs for -duration after a
// warm-up. Client and server share the machine, so the figures are for the
// pair. It prints Markdown, with the machine's load before and after.
//
//	go run ./bench/cmd/httpbench -grove bench/out/grove
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

type config struct {
	grove    string
	duration time.Duration
	warmup   time.Duration
	sessions []int
	keep     bool
}

func main() {
	cfg := config{sessions: []int{1, 8, 64}}
	flag.StringVar(&cfg.grove, "grove", "bench/out/grove", "grove binary")
	flag.DurationVar(&cfg.duration, "duration", 5*time.Second, "measured time per cell")
	flag.DurationVar(&cfg.warmup, "warmup", time.Second, "unmeasured time before each cell")
	flag.Func("sessions", "concurrent HTTP sessions per cell, comma-separated (default 1,8,64)", func(s string) error {
		cfg.sessions = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return fmt.Errorf("bad session count %q", f)
			}
			cfg.sessions = append(cfg.sessions, n)
		}
		return nil
	})
	flag.BoolVar(&cfg.keep, "keep", false, "keep the fixture directory")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("httpbench: ")
	if err := run(context.Background(), cfg); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, cfg config) error {
	dir, err := os.MkdirTemp("", "httpbench")
	if err != nil {
		return err
	}
	if !cfg.keep {
		defer os.RemoveAll(dir)
	}
	fx, err := makeFixture(dir)
	if err != nil {
		return fmt.Errorf("making the fixture: %w", err)
	}
	loadBefore := benchutil.LoadAvg()
	var rows []row
	for _, w := range workloads(fx) {
		log.Printf("%s over stdio", w.name)
		r, err := measureStdio(ctx, cfg, fx, w)
		if err != nil {
			return fmt.Errorf("%s over stdio: %w", w.name, err)
		}
		rows = append(rows, r)
		for _, n := range cfg.sessions {
			log.Printf("%s over HTTP, %d sessions", w.name, n)
			r, err := measureHTTP(ctx, cfg, fx, w, n)
			if err != nil {
				return fmt.Errorf("%s over HTTP with %d sessions: %w", w.name, n, err)
			}
			rows = append(rows, r)
		}
	}
	report(os.Stdout, cfg, fx, rows, loadBefore, benchutil.LoadAvg())
	return nil
}

func report(w *os.File, cfg config, fx fixture, rows []row, loadBefore, loadAfter string) {
	fmt.Fprintf(w, "%s, %s/%s, %d CPUs, Go %s; 1-minute load %s before, %s after.\n",
		benchutil.Version(cfg.grove), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), loadBefore, loadAfter)
	fmt.Fprintf(w, "Fixture: a git repository of %d files; the read is of a 4 KiB file. %v per cell after %v of warm-up; one run.\n\n",
		fx.files, cfg.duration, cfg.warmup)
	fmt.Fprintln(w, "| workload | transport | sessions | requests | req/s | p50 | p99 | errors |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %d | %d | %.0f | %s | %s | %d |\n", r.workload, r.transport, r.sessions, len(r.latencies),
			float64(len(r.latencies))/r.elapsed.Seconds(), benchutil.Ms(benchutil.Percentile(r.latencies, 50)),
			benchutil.Ms(benchutil.Percentile(r.latencies, 99)), r.errors)
	}
}
