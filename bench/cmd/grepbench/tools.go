package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// match is one matching line: where, and its text (cut as grove cuts it).
type match struct {
	path string
	line int
	text string
}

// settle is the wait between grove's initialize answer and its first grep.
var settle time.Duration

// allLines is max_results for a grep that must return every match.
const allLines = 10_000_000

// groveGrep starts grove on dir and times its first grep call, over a raw
// JSON-RPC client: the clock stops at the answer's last byte, before any
// decoding (the go-sdk client's takes longer than the search for a large
// answer). It returns the matches, the call's wall time and the server's
// CPU time during the call, then the same for a second, warm call; and
// grove's peak RSS right after the first call.
func groveGrep(ctx context.Context, bin, dir, expr string) ([]match, [2]time.Duration, [2]time.Duration, int64, error) {
	var wall, cpu [2]time.Duration
	var peak int64
	p, err := benchutil.StartRaw(ctx, []string{bin, "--root", dir}, benchutil.Legacy, nil)
	if err != nil {
		return nil, wall, cpu, 0, err
	}
	defer p.Close()
	time.Sleep(settle)
	var res *mcp.CallToolResult
	for i := range 2 {
		cpu0, err := p.CPU()
		if err != nil {
			return nil, wall, cpu, peak, err
		}
		resume := benchutil.QuietGC()
		res, wall[i], err = p.CallTool("grep", map[string]any{"pattern": expr, "max_results": allLines})
		resume()
		if err != nil {
			return nil, wall, cpu, peak, err
		}
		cpu1, err := p.CPU()
		if err != nil {
			return nil, wall, cpu, peak, err
		}
		cpu[i] = cpu1 - cpu0
		if i == 0 {
			if m, err := p.Memory(); err == nil {
				peak = m.Peak
			}
		}
	}
	var out struct {
		Matches []struct {
			Path string `json:"path"`
			Line int    `json:"line"`
			Text string `json:"text"`
		} `json:"matches"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, wall, cpu, peak, err
	}
	ms := make([]match, len(out.Matches))
	for i, m := range out.Matches {
		ms[i] = match{m.Path, m.Line, m.Text}
	}
	return ms, wall, cpu, peak, nil
}

// ripgrep times rg over dir: hidden files searched, ignore rules as grove's.
func ripgrep(dir, expr string, repo bool) ([]match, time.Duration, time.Duration, error) {
	// --hidden searches .git too; grove never enters it.
	args := []string{"--no-config", "--hidden", "--glob", "!.git", "-n", "--no-heading", "--with-filename", "--color", "never"}
	if !repo {
		args = append(args, "--no-require-git")
	}
	out, d, cpu, err := timed(dir, "rg", append(args, "-e", expr)...)
	if err != nil {
		return nil, 0, 0, err
	}
	var ms []match
	for line := range strings.SplitSeq(string(out), "\n") {
		path, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, text, _ := strings.Cut(rest, ":")
		ln, err := strconv.Atoi(n)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("rg output %q", line)
		}
		ms = append(ms, match{path, ln, clip(strings.TrimSuffix(text, "\r"))})
	}
	return ms, d, cpu, nil
}

// gitGrep times git grep -P (PCRE, like the other two a backtracking-free
// fast path for literals) over dir.
func gitGrep(dir, expr string, repo bool) (time.Duration, time.Duration, error) {
	args := []string{"grep", "-n", "-P", "-I"}
	if !repo {
		args = append(args, "--no-index", "--exclude-standard")
	}
	_, d, cpu, err := timed(dir, "git", append(args, "-e", expr)...)
	return d, cpu, err
}

// timed runs a command in dir; exit status 1 (no match) is no error.
// It returns the output, the wall time and the process's CPU time.
func timed(dir, name string, args ...string) ([]byte, time.Duration, time.Duration, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	resume := benchutil.QuietGC()
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	resume()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && stderr.Len() == 0 {
		err = nil
	}
	if err != nil {
		return nil, 0, 0, fmt.Errorf("%v: %s", err, stderr.String())
	}
	return out.Bytes(), d, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

// clip cuts a line as grove's answers do (300 bytes, on a rune boundary).
func clip(s string) string {
	const max = 300
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// compare says whether grove and rg found the same lines.
func compare(grove, rg []match) string {
	key := func(m match) string { return m.path + "\x00" + strconv.Itoa(m.line) + "\x00" + m.text }
	g, r := map[string]bool{}, map[string]bool{}
	for _, m := range grove {
		g[key(m)] = true
	}
	for _, m := range rg {
		r[key(m)] = true
	}
	var onlyG, onlyR []string
	for k := range g {
		if !r[k] {
			onlyG = append(onlyG, k)
		}
	}
	for k := range r {
		if !g[k] {
			onlyR = append(onlyR, k)
		}
	}
	if len(onlyG) == 0 && len(onlyR) == 0 {
		return "same"
	}
	sort.Strings(onlyG)
	sort.Strings(onlyR)
	ex := func(s []string) string {
		if len(s) == 0 {
			return ""
		}
		return " e.g. " + strings.ReplaceAll(s[0], "\x00", ":")
	}
	return fmt.Sprintf("DIFFERENT: %d only grove%s; %d only rg%s", len(onlyG), ex(onlyG), len(onlyR), ex(onlyR))
}
