// Command watchbench measures grove's change notifications end to end over
// stdio, in both protocol eras (legacy resources/subscribe, modern
// subscriptions/listen): write-to-notification latency, a burst of writes
// across many subscribed files (nothing lost, list_changed coalesced), and
// the cost of setting up watches on a 50,000-file tree. It prints Markdown.
//
//	go run ./bench/cmd/watchbench -grove /tmp/grove-bench
package main

import (
	"context"
	"encoding/json"
	"flag"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type config struct {
	grove                  string
	writes                 int
	files, burst, created  int
	setupReps              int
	eras                   []string
	skipLatency, skipBurst bool
	skipSetup              bool
}

func main() {
	var cfg config
	eras := "legacy,modern"
	flag.StringVar(&cfg.grove, "grove", "/tmp/grove-bench", "grove binary")
	flag.IntVar(&cfg.writes, "writes", 100, "writes in the latency test")
	flag.IntVar(&cfg.files, "files", 1000, "subscribed files in the burst test")
	flag.IntVar(&cfg.burst, "burst", 10_000, "writes in the burst")
	flag.IntVar(&cfg.created, "created", 1000, "files created at once for the list_changed count")
	flag.IntVar(&cfg.setupReps, "setup-reps", 5, "repetitions of the watch set-up measurement")
	flag.StringVar(&eras, "eras", eras, "comma-separated: legacy, modern")
	flag.BoolVar(&cfg.skipLatency, "skip-latency", false, "skip the latency test")
	flag.BoolVar(&cfg.skipBurst, "skip-burst", false, "skip the burst test")
	flag.BoolVar(&cfg.skipSetup, "skip-setup", false, "skip the watch set-up test")
	flag.Parse()
	cfg.eras = strings.Split(eras, ",")
	log.SetFlags(0)
	log.SetPrefix("watchbench: ")
	if err := run(context.Background(), cfg); err != nil {
		log.Fatal(err)
	}
}

var eraVersion = map[string]string{"legacy": benchutil.Legacy, "modern": benchutil.Modern}

func run(ctx context.Context, cfg config) error {
	tmp, err := os.MkdirTemp("", "watchbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	base, err := filepath.EvalSymlinks(tmp)
	if err != nil {
		return err
	}
	r := report{cfg: cfg, load: [2]string{benchutil.LoadAvg()}, version: benchutil.Version(cfg.grove)}
	for _, era := range cfg.eras {
		v, ok := eraVersion[era]
		if !ok {
			log.Fatalf("unknown era %q", era)
		}
		er := eraResult{name: era}
		if !cfg.skipLatency {
			log.Printf("%s: latency, %d writes", era, cfg.writes)
			if er.latency, err = measureLatency(ctx, cfg.grove, base, v, cfg.writes); err != nil {
				return err
			}
		}
		if !cfg.skipBurst {
			log.Printf("%s: burst, %d writes over %d files", era, cfg.burst, cfg.files)
			if er.burst, err = measureBurst(ctx, cfg.grove, base, v, cfg.files, cfg.burst, cfg.created); err != nil {
				return err
			}
		}
		r.eras = append(r.eras, er)
	}
	if !cfg.skipSetup {
		log.Printf("watch set-up, %d reps", cfg.setupReps)
		if r.setup, err = measureSetup(ctx, cfg.grove, base, cfg.setupReps); err != nil {
			return err
		}
	}
	r.load[1] = benchutil.LoadAvg()
	r.print(os.Stdout, time.Now())
	return nil
}

// structured decodes a result's structuredContent into v.
func structured(res *mcp.CallToolResult, v any) error {
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
