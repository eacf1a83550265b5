package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

// blamed is what both tools say of one final line.
type blamed struct {
	commit string
	line   int
	path   string
}

// measure blames p with git and with a fresh grove (first call, then cfg.warm more), interleaved.
func measure(cfg config, dir, p string) (fileResult, error) {
	r := fileResult{path: p}
	want, d, err := gitBlame(dir, p)
	if err != nil {
		return r, err
	}
	r.gitFirst, r.git, r.lines, r.gitFirstCPU = d, append(r.git, d), len(want), lastGitCPU
	c, err := benchutil.StartRaw(context.Background(), []string{cfg.grove, "--root", dir, "--log-level", "warn"}, benchutil.Legacy, nil)
	if err != nil {
		return r, err
	}
	defer c.Close()
	cpu0, _ := c.CPU()
	got, d, err := groveBlame(c, dir, p)
	if err != nil {
		return r, err
	}
	cpu1, _ := c.CPU()
	r.first, r.firstCPU = d, cpu1-cpu0
	for range cfg.warm {
		_, d, err := gitBlame(dir, p)
		if err != nil {
			return r, err
		}
		r.git = append(r.git, d)
		if _, d, err = groveBlame(c, dir, p); err != nil {
			return r, err
		}
		r.warm = append(r.warm, d)
	}
	r.commitAgree, r.agree = compare(want, got, p, cfg.verbose)
	return r, nil
}

// compare counts the final lines both attribute to the same commit, and to the same commit, original line and path.
func compare(want, got []blamed, p string, verbose bool) (commitAgree, agree int) {
	shown := 0
	for i := range min(len(want), len(got)) {
		if want[i].commit == got[i].commit {
			commitAgree++
			if want[i] == got[i] {
				agree++
				continue
			}
		}
		if verbose && shown < 5 {
			shown++
			fmt.Printf("  %s:%d git %s %s:%d, grove %s %s:%d\n", p, i+1, want[i].commit[:10], want[i].path, want[i].line,
				got[i].commit[:min(10, len(got[i].commit))], got[i].path, got[i].line)
		}
	}
	return commitAgree, agree
}

// gitBlame runs `git blame --porcelain HEAD -- p` and parses it.
func gitBlame(dir, p string) ([]blamed, time.Duration, error) { return gitBlameAt(dir, "HEAD", p) }

// gitBlameAt runs `git blame --porcelain rev -- p` and parses it.
func gitBlameAt(dir, rev, p string) ([]blamed, time.Duration, error) {
	start := time.Now()
	out, err := runGit(dir, "blame", "--porcelain", rev, "--", p)
	d := time.Since(start)
	if err != nil {
		return nil, d, err
	}
	return parsePorcelain(string(out)), d, nil
}

// parsePorcelain reads git blame --porcelain: a header "<commit> <orig> <final> [<count>]" per line, and a
// "filename" line after the header wherever git states (or restates) the commit's path.
func parsePorcelain(out string) []blamed {
	var lines []blamed
	lastPath := map[string]string{}
	var cur blamed
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "\t"):
			cur.path = lastPath[cur.commit]
			lines = append(lines, cur)
		case strings.HasPrefix(l, "filename "):
			lastPath[cur.commit] = strings.TrimPrefix(l, "filename ")
		default:
			f := strings.Fields(l)
			if len(f) >= 3 && len(f[0]) == 40 {
				n, _ := strconv.Atoi(f[1])
				cur = blamed{commit: f[0], line: n}
			}
		}
	}
	return lines
}

// groveOut is the part of git_blame's structured answer compared.
type groveOut struct {
	Lines []struct {
		Line     int    `json:"line"`
		Commit   string `json:"commit"`
		OrigLine int    `json:"orig_line"`
		OrigPath string `json:"orig_path"`
	} `json:"lines"`
	Total     int  `json:"total"`
	Truncated bool `json:"truncated"`
}

// groveBlame calls git_blame on the whole file (up to its 2,000-line cap).
func groveBlame(c *benchutil.Raw, dir, p string) ([]blamed, time.Duration, error) {
	return groveBlameAt(c, dir, "", p)
}

// groveBlameAt calls git_blame on the whole file at revision rev ("" for HEAD).
func groveBlameAt(c *benchutil.Raw, dir, rev, p string) ([]blamed, time.Duration, error) {
	args := map[string]any{"repo_path": dir, "path": p}
	if rev != "" {
		args["revision"] = rev
	}
	res, d, err := c.CallTool("git_blame", args)
	if err != nil {
		return nil, d, err
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, d, err
	}
	var out groveOut
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, d, err
	}
	if out.Truncated {
		return nil, d, fmt.Errorf("answer truncated at %d of %d lines", len(out.Lines), out.Total)
	}
	var got []blamed
	for _, l := range out.Lines {
		b := blamed{commit: l.Commit, line: l.OrigLine, path: cmpOr(l.OrigPath, p)}
		got = append(got, b)
	}
	return got, d, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func medianF(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
