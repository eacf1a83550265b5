package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

// groveProc is a grove process serving one repository, and the client talking to it.
type groveProc struct {
	c       *benchutil.Raw
	cmd     *exec.Cmd
	startup time.Duration // spawn to initialize answer
	stderr  *strings.Builder
}

// startGrove spawns `grove --root dir` and runs the initialize handshake over stdio with benchutil.Raw, a
// client that does no work between writing a request and reading its answer's last byte.
func startGrove(ctx context.Context, cfg config, dir string) (*groveProc, error) {
	var stderr strings.Builder
	c, err := benchutil.StartRaw(ctx, []string{cfg.grove, "--root", dir, "--log-level", "warn"}, cfg.protocol, &stderr)
	if err != nil {
		return nil, fmt.Errorf("starting grove: %w (stderr: %.500s)", err, stderr.String())
	}
	return &groveProc{c: c, cmd: c.Cmd, startup: c.Startup, stderr: &stderr}, nil
}

func (g *groveProc) close() error { return g.c.Close() }

// call runs one tool call and returns its wall time (request's first byte written to answer's last byte
// read). A protocol error or an isError result is returned as an error naming the tool's message.
func (g *groveProc) call(_ context.Context, name string, args map[string]any) (*mcp.CallToolResult, time.Duration, error) {
	return g.c.CallTool(name, args)
}

// structured decodes the result's structuredContent into v.
func structured(res *mcp.CallToolResult, v any) error {
	if res.StructuredContent == nil {
		return errors.New("no structuredContent")
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// peakRSS reads VmHWM (the high-water mark of resident memory) of the grove process, in bytes.
func (g *groveProc) peakRSS() (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", g.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc status")
}

// runGit runs the git CLI in dir, isolated from user and system configuration, and returns its stdout.
func runGit(dir string, args ...string) ([]byte, error) {
	out, _, err := runGitCPU(dir, args...)
	return out, err
}

// runGitCPU is runGit that also returns the CPU time (user + system) the git process used.
func runGitCPU(dir string, args ...string) ([]byte, time.Duration, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = gitEnv()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var cpu time.Duration
	if cmd.ProcessState != nil {
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if err != nil {
		return out, cpu, fmt.Errorf("git %s: %w: %.300s", strings.Join(args, " "), err, stderr.String())
	}
	return out, cpu, nil
}

// cpuTime is the CPU time all threads of the grove process have used so far (/proc/PID/task/*/schedstat),
// which the machine's load does not inflate the way it inflates wall time.
func (g *groveProc) cpuTime() time.Duration {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", g.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	var total time.Duration
	for _, t := range tasks {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", g.cmd.Process.Pid, t.Name()))
		if err != nil {
			continue // the thread ended
		}
		if f := strings.Fields(string(data)); len(f) > 0 {
			ns, _ := strconv.ParseInt(f[0], 10, 64)
			total += time.Duration(ns)
		}
	}
	return total
}

// gitHome is an empty HOME for the git CLI (set by main).
var gitHome string

func gitEnv() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + gitHome, "XDG_CONFIG_HOME=" + gitHome, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_OPTIONAL_LOCKS=0", "LANG=C", "LC_ALL=C", "GIT_PAGER=cat", "PAGER=cat", "TZ=UTC",
	}
}
