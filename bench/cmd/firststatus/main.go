// Command firststatus times the first git_status of fresh grove processes, several binaries side by side
// with `git status --porcelain` on the same worktree, interleaved round by round so that all of them see the
// same load. A grove run is: spawn, initialize, and at once (or after -pause) one git_status; its wall time
// runs from the request's first byte to the answer's last, and its CPU time is the process's from spawn to
// the answer minus its CPU at the initialize answer (so start-up is not counted, but the tool registration
// and the background work the call waits for are). git's CPU time is user plus system of the one run.
//
//	go run ./bench/cmd/firststatus -n 15 -grove /tmp/grove-main -grove /tmp/grove-new ~/.cache/grove-gitbench/log20k
//
// It prints one line per binary (and git): median and quartiles of wall and CPU time, and the ratio of the
// medians to git's, and for grove the median of the minor page faults in the same window as its CPU time
// (git's: of its whole process), which the load does not move; then the load average.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

type binaries []string

func (b *binaries) String() string     { return strings.Join(*b, ",") }
func (b *binaries) Set(v string) error { *b = append(*b, v); return nil }

// sample is one first call.
type sample struct {
	wall, cpu time.Duration
	faults    int64 // minor page faults
}

func main() {
	var groves binaries
	flag.Var(&groves, "grove", "grove binary (repeat to compare several)")
	n := flag.Int("n", 11, "rounds")
	pause := flag.Duration("pause", 0, "pause between initialize and the call")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("firststatus: ")
	if len(groves) == 0 || flag.NArg() != 1 {
		log.Fatal("usage: firststatus -grove BIN [-grove BIN...] [-n N] WORKTREE")
	}
	dir, err := filepath.Abs(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("load before: %s\n", benchutil.LoadAvg())
	res := make([][]sample, len(groves)+1) // the last: git
	for round := range *n {
		for k := range len(groves) + 1 {
			i := (k + round) % (len(groves) + 1) // rotate who goes first
			var s sample
			var err error
			if i == len(groves) {
				s, err = gitStatus(dir)
			} else {
				s, err = groveStatus(groves[i], dir, *pause)
			}
			if err != nil {
				log.Fatal(err)
			}
			res[i] = append(res[i], s)
		}
	}
	gitWall, gitCPU := medians(res[len(groves)])
	for i, r := range res {
		name := "git"
		if i < len(groves) {
			name = groves[i]
		}
		wall, cpu := medians(r)
		wlo, whi := quartiles(r, func(s sample) time.Duration { return s.wall })
		clo, chi := quartiles(r, func(s sample) time.Duration { return s.cpu })
		fmt.Printf("%-28s wall %s (%s–%s) %5.2fx   CPU %s (%s–%s) %5.2fx   faults %d\n", name,
			benchutil.Ms(wall), benchutil.Ms(wlo), benchutil.Ms(whi), float64(wall)/float64(gitWall),
			benchutil.Ms(cpu), benchutil.Ms(clo), benchutil.Ms(chi), float64(cpu)/float64(gitCPU), medianFaults(r))
	}
	fmt.Printf("load after: %s; n = %d rounds, %s\n", benchutil.LoadAvg(), *n, dir)
}

func groveStatus(bin, dir string, pause time.Duration) (sample, error) {
	c, err := benchutil.StartRaw(context.Background(), []string{bin, "--root", dir, "--log-level", "warn"}, "2025-11-25", io.Discard)
	if err != nil {
		return sample{}, err
	}
	defer c.Close()
	time.Sleep(pause)
	cpu0, err := c.CPU()
	if err != nil {
		return sample{}, err
	}
	faults0 := minorFaults(c.PID())
	res, wall, err := c.CallTool("git_status", map[string]any{"repo_path": dir})
	if err != nil {
		return sample{}, fmt.Errorf("%s: %w", bin, err)
	}
	if res.IsError {
		return sample{}, fmt.Errorf("%s: git_status failed: %v", bin, res.Content)
	}
	cpu1, err := c.CPU()
	return sample{wall: wall, cpu: cpu1 - cpu0, faults: minorFaults(c.PID()) - faults0}, err
}

// minorFaults returns a process's minor page faults so far, from /proc/PID/stat (field 10, counted from the
// last ')', after which the state is field 3); 0 when it cannot be read.
func minorFaults(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 8 {
		return 0
	}
	n, _ := strconv.ParseInt(string(f[10-3]), 10, 64)
	return n
}

func gitStatus(dir string) (sample, error) {
	cmd := exec.Command("git", "status", "--porcelain")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return sample{}, fmt.Errorf("git status: %v: %s", err, out)
	}
	wall := time.Since(start)
	return sample{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), faults: rusageFaults(cmd.ProcessState)}, nil
}

func medians(r []sample) (wall, cpu time.Duration) {
	var w, c []time.Duration
	for _, s := range r {
		w, c = append(w, s.wall), append(c, s.cpu)
	}
	return benchutil.Median(w), benchutil.Median(c)
}

func medianFaults(r []sample) int64 {
	var fs []time.Duration // Median works on durations; a count fits
	for _, s := range r {
		fs = append(fs, time.Duration(s.faults))
	}
	return int64(benchutil.Median(fs))
}

func quartiles(r []sample, f func(sample) time.Duration) (lo, hi time.Duration) {
	var ds []time.Duration
	for _, s := range r {
		ds = append(ds, f(s))
	}
	return benchutil.Percentile(ds, 25), benchutil.Percentile(ds, 75)
}
