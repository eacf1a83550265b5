// Command blametrue measures git_blame against `git blame --porcelain` on a real repository: for each of the
// N busiest files (the most non-merge commits touching them, among files of at most -max-lines lines at HEAD)
// it starts a fresh grove, times the first git_blame call, then -warm more calls, each after one timed git
// run, and compares every line: the commit, the original line number and the original path.
//
//	go run ./bench/cmd/blametrue -grove /tmp/grove -n 30 /work/repos/git
//	bench/blametrue.sh /work/repos/redis 30
//
// It prints one row per file and a summary: lines agreeing (commit only, and commit, line and path), and the
// median grove/git ratios of the first call and of the warm calls.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

type config struct {
	grove    string
	n        int
	warm     int
	maxLines int
	files    string
	verbose  bool
	diverge  bool
}

func main() {
	var cfg config
	flag.StringVar(&cfg.grove, "grove", "/tmp/grove-blametrue", "grove binary")
	flag.IntVar(&cfg.n, "n", 30, "busiest files to blame")
	flag.IntVar(&cfg.warm, "warm", 2, "warm calls per file after the first, each interleaved with a git run")
	flag.IntVar(&cfg.maxLines, "max-lines", 2000, "only files of at most this many lines")
	flag.StringVar(&cfg.files, "files", "", "comma-separated paths to blame instead of the busiest")
	flag.BoolVar(&cfg.verbose, "v", false, "print the first disagreeing lines of each file")
	flag.BoolVar(&cfg.diverge, "diverge", false, "with -files: find the oldest commit where the two disagree, per file (no timing)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("blametrue: ")
	if flag.NArg() != 1 {
		log.Fatal("usage: blametrue [flags] REPO")
	}
	home, err := os.MkdirTemp("", "blametrue-home-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(home)
	gitHome = home
	if err := run(cfg, flag.Arg(0)); err != nil {
		log.Print(err)
		os.RemoveAll(home)
		os.Exit(1)
	}
}

// fileResult is one file's measurements.
type fileResult struct {
	path               string
	lines              int
	commitAgree, agree int
	first              time.Duration   // grove's first call in a fresh process
	gitFirst           time.Duration   // the git run just before it
	firstCPU           time.Duration   // the server's CPU time during its first call (all its threads)
	gitFirstCPU        time.Duration   // that git run's (user and system)
	warm, git          []time.Duration // the warm calls and all git runs
}

func run(cfg config, dir string) error {
	head, err := runGit(dir, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	paths := strings.Split(cfg.files, ",")
	if cfg.diverge {
		return diverge(cfg, dir, paths)
	}
	if cfg.files == "" {
		if paths, err = busiest(dir, cfg.n, cfg.maxLines); err != nil {
			return err
		}
	}
	fmt.Printf("repository %s at %s, %d files, load %s\n\n", dir, strings.TrimSpace(string(head)), len(paths), benchutil.LoadAvg())
	fmt.Println("| file | lines | agree (commit) | agree (commit, line, path) | grove first ms | git ms | grove warm ms | first ratio | warm ratio |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	var results []fileResult
	for _, p := range paths {
		r, err := measure(cfg, dir, p)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		results = append(results, r)
		gitMed := benchutil.Median(r.git)
		fmt.Printf("| %s | %d | %d | %d | %.0f | %.0f | %.0f | %.2f× | %.2f× |\n", p, r.lines, r.commitAgree, r.agree,
			ms(r.first), ms(gitMed), ms(benchutil.Median(r.warm)), ratio(r.first, r.gitFirst), ratio(benchutil.Median(r.warm), gitMed))
	}
	summarize(results)
	return nil
}

func summarize(results []fileResult) {
	var lines, commitAgree, agree int
	var firsts, warms []float64
	var allFirst, allGit, allFirstCPU, allGitCPU []time.Duration
	var firstCPUs []float64
	for _, r := range results {
		lines, commitAgree, agree = lines+r.lines, commitAgree+r.commitAgree, agree+r.agree
		firsts = append(firsts, ratio(r.first, r.gitFirst))
		firstCPUs = append(firstCPUs, ratio(r.firstCPU, r.gitFirstCPU))
		allFirstCPU, allGitCPU = append(allFirstCPU, r.firstCPU), append(allGitCPU, r.gitFirstCPU)
		warms = append(warms, ratio(benchutil.Median(r.warm), benchutil.Median(r.git)))
		allFirst, allGit = append(allFirst, r.first), append(allGit, r.gitFirst)
	}
	fmt.Printf("\nlines: %d; agreeing on the commit: %d (%.2f %%); on commit, original line and path: %d (%.2f %%)\n",
		lines, commitAgree, pct(commitAgree, lines), agree, pct(agree, lines))
	fmt.Printf("first call: median grove %.0f ms, git %.0f ms; median per-file ratio %.2f×\n",
		ms(benchutil.Median(allFirst)), ms(benchutil.Median(allGit)), medianF(firsts))
	fmt.Printf("first call CPU time: median grove %.0f ms, git %.0f ms; median per-file ratio %.2f×\n",
		ms(benchutil.Median(allFirstCPU)), ms(benchutil.Median(allGitCPU)), medianF(firstCPUs))
	fmt.Printf("warm: median per-file ratio %.2f×; load at the end %s\n", medianF(warms), benchutil.LoadAvg())
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func ratio(a, b time.Duration) float64 { return float64(a) / float64(max(b, 1)) }

func pct(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
