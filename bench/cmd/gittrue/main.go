// Command gittrue measures how exactly grove's git_diff and git_show write what `git diff` and `git show`
// write. It samples single-parent commits of a repository (a fixed seed, so every run sees the same ones),
// asks grove for git_diff target=A~1..A and git_show revision=A over MCP (stdio), runs `git diff A~1 A`,
// `git diff --numstat A~1 A` and `git show A` with the CLI isolated from user and system configuration,
// and prints Markdown: how many patches are byte-identical (with the index lines' hash length, and with
// both sides' hashes cut to 7 digits), how many numstats and shows are, and the median times side by side.
// It also times one big diff (HEAD~200..HEAD) both ways, interleaved.
//
//	go run ./bench/cmd/gittrue -grove /tmp/grove -n 200 -out /tmp/gittrue-git /work/repos/git
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
)

type config struct {
	grove    string
	n        int
	seed     int64
	out      string // directory for the first mismatches (grove and git outputs), or ""
	bigReps  int
	protocol string
}

func main() {
	var cfg config
	flag.StringVar(&cfg.grove, "grove", "/tmp/grove-gittrue", "grove binary")
	flag.IntVar(&cfg.n, "n", 200, "commits to sample")
	flag.Int64Var(&cfg.seed, "seed", 1, "sampling seed")
	flag.StringVar(&cfg.out, "out", "", "write up to 20 mismatching outputs here")
	flag.IntVar(&cfg.bigReps, "big", 5, "repetitions of the HEAD~200..HEAD diff (0: skip)")
	flag.StringVar(&cfg.protocol, "protocol", "2025-11-25", "MCP protocol version")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gittrue: ")
	if flag.NArg() != 1 {
		log.Fatal("usage: gittrue [flags] REPO")
	}
	home, err := os.MkdirTemp("", "gittrue-home-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(home)
	gitHome = home
	res, err := run(cfg, flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	var b strings.Builder
	res.report(&b)
	fmt.Print(b.String())
}
