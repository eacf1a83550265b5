// Package benchutil holds what grove's benchmark drivers share: starting an
// MCP server as a child process behind a go-sdk client, reading the child's
// memory from /proc, and summarising timings.
//
//	p, err := benchutil.Start(ctx, benchutil.Spec{Argv: []string{"/tmp/grove", "--root", dir}, Protocol: benchutil.Legacy})
//	defer p.Close()
//	fmt.Println(p.Startup, p.RSS())
package benchutil

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Protocol versions the drivers speak.
const (
	Legacy = "2025-11-25" // initialize handshake; the newest version the reference server knows
	Modern = "2026-07-28" // server/discover, subscriptions/listen
)

// Spec says how to start one server.
type Spec struct {
	Argv     []string           // program and arguments
	Protocol string             // Legacy or Modern
	Options  *mcp.ClientOptions // notification handlers; nil means none
	Stderr   io.Writer          // the child's stderr; nil discards it
	// Middleware is added to the client's receiving side before connecting.
	Middleware []mcp.Middleware
}

// Proc is a running server and the client session talking to it.
type Proc struct {
	Session *mcp.ClientSession
	Cmd     *exec.Cmd
	Startup time.Duration // from just before the process was spawned to the initialize (or discover) answer
}

// Start spawns the server and connects to it. The client announces no roots
// capability, so the servers use their command-line roots and never ask.
func Start(ctx context.Context, spec Spec) (*Proc, error) {
	opts := &mcp.ClientOptions{}
	if spec.Options != nil {
		c := *spec.Options
		opts = &c
	}
	if opts.Capabilities == nil {
		opts.Capabilities = &mcp.ClientCapabilities{}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "grove-bench", Version: "0"}, opts)
	client.AddReceivingMiddleware(spec.Middleware...)
	cmd := exec.Command(spec.Argv[0], spec.Argv[1:]...)
	cmd.Stderr = spec.Stderr
	t := &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	start := time.Now()
	cs, err := client.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: spec.Protocol})
	if err != nil {
		if cmd.Process != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		return nil, fmt.Errorf("connecting to %s: %w", spec.Argv[0], err)
	}
	return &Proc{Session: cs, Cmd: cmd, Startup: time.Since(start)}, nil
}

// PID is the server's process id.
func (p *Proc) PID() int { return p.Cmd.Process.Pid }

// Negotiated is the protocol version the session runs.
func (p *Proc) Negotiated() string {
	if r := p.Session.InitializeResult(); r != nil {
		return r.ProtocolVersion
	}
	return ""
}

// Close ends the session (closing stdin) and waits for the process.
func (p *Proc) Close() error { return p.Session.Close() }

// Mem is a process's resident memory in bytes.
type Mem struct {
	RSS  int64 // VmRSS: resident now
	Peak int64 // VmHWM: the high-water mark of RSS
}

// Memory reads VmRSS and VmHWM of the server process.
func (p *Proc) Memory() (Mem, error) { return ReadMem(p.PID()) }

// ReadMem reads VmRSS and VmHWM from /proc/pid/status.
func ReadMem(pid int) (Mem, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return Mem{}, err
	}
	defer f.Close()
	var m Mem
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return Mem{}, fmt.Errorf("parsing %s %q: %w", k, v, err)
		}
		if k == "VmRSS" {
			m.RSS = kb << 10
		} else {
			m.Peak = kb << 10
		}
	}
	if m.RSS == 0 {
		return m, errors.New("no VmRSS in /proc status")
	}
	return m, sc.Err()
}

// Text joins the text blocks of a tool result; an isError result is an error.
func Text(res *mcp.CallToolResult, err error) (string, error) {
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	if res.IsError {
		return "", fmt.Errorf("tool error: %s", b.String())
	}
	return b.String(), nil
}

// CPUTime is the CPU time the process's live threads have used so far, from
// /proc/PID/task/*/schedstat (nanoseconds, unlike the 10 ms ticks of stat).
// Unlike wall time it does not grow when other programs load the machine.
func CPUTime(pid int) (time.Duration, error) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0, err
	}
	var total time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue // the thread ended
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			continue
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("parsing schedstat %q: %w", b, err)
		}
		total += time.Duration(ns)
	}
	return total, nil
}

// CPU is CPUTime of the server process.
func (p *Proc) CPU() (time.Duration, error) { return CPUTime(p.PID()) }

// QuietGC stops the bench's own garbage collector for a timed section,
// after a full collection, until the returned function is called. The
// collector of a client that has just decoded a 3 MB answer otherwise goes
// on marking on a core the next timed process needs (on 2 cores, warm grep
// `return` took 1–3 ms longer in a run of 40 calls without it).
func QuietGC() (resume func()) {
	runtime.GC()
	old := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(old) }
}
