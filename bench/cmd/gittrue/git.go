package main

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"time"
)

// gitHome is an empty HOME for the git CLI (set by main).
var gitHome string

// runGit runs the git CLI in dir, isolated from user and system configuration, and returns its stdout and
// wall time.
func runGit(dir string, args ...string) ([]byte, time.Duration, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + gitHome, "XDG_CONFIG_HOME=" + gitHome, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_OPTIONAL_LOCKS=0", "LANG=C", "LC_ALL=C", "GIT_PAGER=cat", "PAGER=cat", "TZ=UTC",
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	d := time.Since(start)
	if err != nil {
		return out, d, fmt.Errorf("git %s: %w: %.300s", strings.Join(args, " "), err, stderr.String())
	}
	return out, d, nil
}

// sample picks n single-parent commits reachable from HEAD, the same ones for the same seed and history.
func sample(dir string, n int, seed int64) ([]string, error) {
	out, _, err := runGit(dir, "rev-list", "--min-parents=1", "--max-parents=1", "HEAD")
	if err != nil {
		return nil, err
	}
	all := strings.Fields(string(out))
	rand.New(rand.NewSource(seed)).Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	return all[:min(n, len(all))], nil
}

// numstat is one file of `git diff --numstat -z`: "added deleted path" or, for a rename, "… old => new".
func parseNumstat(out []byte) []string {
	fields := strings.Split(string(out), "\x00")
	var recs []string
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if f == "" {
			continue
		}
		parts := strings.SplitN(f, "\t", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[2] == "" && i+2 < len(fields) { // rename: the two paths follow
			recs = append(recs, parts[0]+"\t"+parts[1]+"\t"+fields[i+1]+" => "+fields[i+2])
			i += 2
			continue
		}
		recs = append(recs, strings.Join(parts, "\t"))
	}
	return recs
}
