// Command gitbench compares grove's git_* tools, called over MCP (stdio, go-sdk client), with the git CLI
// run as a fresh process per call, on repositories made by bench/cmd/gitgen (see bench/git.sh).
//
// For every operation it reports the first call after grove starts (median over -first fresh processes),
// grove's warm median (calls two onward, in one long-lived session per repository, interleaved with the git
// runs), git's median, their ratio against the target, a rough check that both did the same work, and
// grove's peak RSS (VmHWM) at the end of each repository's session. It prints Markdown to stdout.
//
//	go run ./bench/cmd/gitbench -grove /tmp/grove-gitbench -n 15 /tmp/grove-bench-repos/mid /tmp/grove-bench-repos/wide
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"
)

type config struct {
	grove    string
	n        int
	first    int
	protocol string
	only     string
	pause    time.Duration // between initialize and the first call (first-call runs only)
}

// meta is the description gitgen writes next to each repository (REPO.json).
type meta struct {
	Kind      string   `json:"kind"`
	Commits   int      `json:"commits"`
	Files     int      `json:"files"`
	Dirs      int      `json:"dirs"`
	LongPath  string   `json:"long_path"`
	LongHits  int      `json:"long_hits"`
	Modify    []string `json:"modify"`
	DiffA     string   `json:"diff_a"`
	DiffB     string   `json:"diff_b"`
	DiffFiles int      `json:"diff_files"`
}

func main() {
	var cfg config
	flag.StringVar(&cfg.grove, "grove", "/tmp/grove-gitbench", "grove binary")
	flag.IntVar(&cfg.n, "n", 15, "warm repetitions per operation (grove and git each)")
	flag.IntVar(&cfg.first, "first", 3, "fresh grove processes per operation for the first-call time")
	flag.StringVar(&cfg.protocol, "protocol", "2025-11-25", "MCP protocol version the client asks for in initialize (a legacy-era version)")
	flag.StringVar(&cfg.only, "only", "", "run only the operation with this name")
	flag.DurationVar(&cfg.pause, "first-pause", 0, "pause between initialize and the first call, as a client thinking before it (default none)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gitbench: ")
	if flag.NArg() == 0 {
		log.Fatal("usage: gitbench [flags] REPO... (each REPO has a REPO.json from gitgen)")
	}
	home, err := os.MkdirTemp("", "gitbench-home-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(home)
	gitHome = home
	var results []repoResult
	for _, dir := range flag.Args() {
		r, err := benchRepo(context.Background(), cfg, dir)
		if err != nil {
			log.Printf("%s: %v", dir, err)
			os.RemoveAll(home)
			os.Exit(1)
		}
		results = append(results, r)
	}
	printReport(os.Stdout, cfg, results)
}

func loadMeta(dir string) (meta, error) {
	var m meta
	data, err := os.ReadFile(filepath.Clean(dir) + ".json")
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(data, &m)
}

// benchRepo measures every operation on one repository.
func benchRepo(ctx context.Context, cfg config, dir string) (repoResult, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return repoResult{}, err
	}
	m, err := loadMeta(dir)
	if err != nil {
		return repoResult{}, fmt.Errorf("reading the repository description: %w", err)
	}
	if out, err := runGit(dir, "status", "--porcelain"); err != nil || len(out) > 0 {
		return repoResult{}, fmt.Errorf("the worktree must be clean (git -C %s checkout -- . && git clean -fd): %v %.200s", dir, err, out)
	}
	res := repoResult{meta: m, dir: dir}
	ops := operations(m)
	if cfg.only != "" {
		ops = filterOps(ops, cfg.only)
	}
	start := time.Now()
	log.Printf("%s: first calls (%d fresh processes per operation)", m.Kind, cfg.first)
	for _, o := range ops {
		fc, err := firstCalls(ctx, cfg, dir, o)
		if err != nil {
			return res, fmt.Errorf("%s: %w", o.name, err)
		}
		res.ops = append(res.ops, opResult{op: o, first: fc})
	}
	log.Printf("%s: warm session, %d calls per operation", m.Kind, cfg.n)
	if err := warmSession(ctx, cfg, dir, &res); err != nil {
		return res, err
	}
	log.Printf("%s: done in %s", m.Kind, time.Since(start).Round(time.Second))
	return res, nil
}

func filterOps(ops []op, name string) []op {
	var out []op
	for _, o := range ops {
		if o.name == name {
			out = append(out, o)
		}
	}
	return out
}
