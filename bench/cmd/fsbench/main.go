// Command fsbench compares grove's file tools with the reference MCP
// filesystem server (@modelcontextprotocol/server-filesystem) over stdio:
// start-up, reading 1 MiB, listing 1,000 entries, a glob over 20,000 files, a
// 2,000-entry tree and memory, then grove's paginated resources/list of a
// 100,000-file tree. Both servers get the same fixtures and the same client on
// protocol 2025-11-25 (benchutil.Raw: a call is timed from the request's first
// byte written to the answer's last byte read, and decoded after); the runs are
// interleaved. It prints Markdown.
//
//	go run ./bench/cmd/fsbench -grove /tmp/grove-bench -ref bench/node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

type config struct {
	grove, ref string
	n          int
	resFiles   int
	resReps    int
	keep       bool
	skip       [numOps]bool
}

func main() {
	var cfg config
	flag.StringVar(&cfg.grove, "grove", "/tmp/grove-bench", "grove binary")
	flag.StringVar(&cfg.ref, "ref", "bench/node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", "reference server script (run with node)")
	flag.IntVar(&cfg.n, "n", 20, "repetitions per measurement")
	flag.IntVar(&cfg.resFiles, "resources", 100_000, "files in the resources/list tree (0 skips it)")
	flag.IntVar(&cfg.resReps, "resource-reps", 3, "repetitions of the resources/list walk (new process each)")
	flag.BoolVar(&cfg.keep, "keep", false, "keep the fixture directory")
	flag.Func("skip", "skip tool workloads by prefix: read, list (both), glob or tree (repeatable), e.g. to see which one sets peak RSS", func(s string) error {
		found := false
		for i, o := range ops {
			if strings.HasPrefix(o.name, s) {
				cfg.skip[i], found = true, true
			}
		}
		if !found {
			return fmt.Errorf("no workload %q", s)
		}
		return nil
	})
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("fsbench: ")
	if err := run(context.Background(), cfg); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, cfg config) error {
	ref, err := filepath.Abs(cfg.ref)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "fsbench-")
	if err != nil {
		return err
	}
	if !cfg.keep {
		defer os.RemoveAll(tmp)
	}
	base, err := filepath.EvalSymlinks(tmp)
	if err != nil {
		return err
	}
	root := filepath.Join(base, "fix")
	log.Printf("writing fixtures under %s", root)
	if err := benchutil.MakeFixtures(root); err != nil {
		return fmt.Errorf("writing fixtures: %w", err)
	}
	flavors := [2]flavor{groveFlavor(cfg.grove), refFlavor(ref)}
	var r report
	r.n = cfg.n
	r.load[0] = benchutil.LoadAvg()
	r.version = benchutil.Version(cfg.grove)
	log.Printf("start-up, %d reps per server", cfg.n)
	if r.startup, err = measureStartup(ctx, flavors, root, cfg.n); err != nil {
		return err
	}
	log.Printf("tools, %d reps per server", cfg.n)
	if r.tools, err = measureTools(ctx, flavors, root, cfg.n, cfg.skip); err != nil {
		return err
	}
	if cfg.resFiles > 0 {
		dir := filepath.Join(base, "res")
		log.Printf("writing %d files for resources/list", cfg.resFiles)
		if err := benchutil.MakeResourceTree(dir, cfg.resFiles); err != nil {
			return fmt.Errorf("writing resource tree: %w", err)
		}
		if r.resources, err = measureResources(ctx, cfg.grove, dir, cfg.resFiles, cfg.resReps); err != nil {
			return err
		}
	}
	r.load[1] = benchutil.LoadAvg()
	r.print(os.Stdout, time.Now())
	return nil
}
