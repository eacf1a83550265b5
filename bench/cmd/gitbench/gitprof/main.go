//go:build unix

// Command gitprof profiles one git_* tool of grove in process: it registers gittools on an MCP server, connects
// a client over in-memory transports (the same tool path as over stdio, minus the pipe), calls the tool once to
// warm up and then -n times under the CPU profiler, and prints the timings. Use it to see where the time of a
// gitbench row goes; the benchmark table itself always comes from gitbench (grove over stdio).
//
//	go run ./bench/cmd/gitbench/gitprof -repo ~/.cache/grove-gitbench/wide -tool git_status -n 20 -cpuprofile /tmp/status.prof
//	go tool pprof -top -cum /tmp/status.prof
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/gittools"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

func main() {
	repo := flag.String("repo", "", "repository (worktree) to serve")
	tool := flag.String("tool", "git_status", "tool to call")
	argsJSON := flag.String("args", "{}", "tool arguments (JSON object); repo_path is added")
	n := flag.Int("n", 20, "profiled calls")
	cpu := flag.String("cpuprofile", "", "write a CPU profile of the profiled calls here")
	mem := flag.String("memprofile", "", "write an allocation profile here")
	flag.StringVar(&dump, "dump", "", "write the first call's structuredContent (JSON) to this file")
	flag.BoolVar(&cold, "cold", false, "profile the first call too (pack-index load, cold object cache)")
	flag.DurationVar(&settle, "settle", 0, "wait this long after the first call (background work such as history indexing)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gitprof: ")
	if err := run(*repo, *tool, *argsJSON, *n, *cpu, *mem); err != nil {
		log.Fatal(err)
	}
}

// cpuTime is the CPU time (user and system) the process has used so far: the first call's, measured around
// it, includes what background goroutines (the pack-index warm-up) did meanwhile, and is less disturbed than
// wall time by other work on the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// dump names the file receiving the first result's structuredContent ("" = none).
var dump string

// settle is the pause after the first call.
var settle time.Duration

// cold starts the CPU profile before the first call.
var cold bool

func run(repo, tool, argsJSON string, n int, cpu, mem string) error {
	dir, err := filepath.Abs(repo)
	if err != nil {
		return err
	}
	args := map[string]any{}
	if err := json.Unmarshal([]byte(argsJSON), &args); err != nil {
		return fmt.Errorf("-args: %w", err)
	}
	args["repo_path"] = dir
	set, err := roots.NewSet([]string{dir}, nil)
	if err != nil {
		return err
	}
	repos := gittools.New(gittools.Options{Scope: scope.Static(set.Scope()), ReadOnly: true})
	defer repos.Close()
	server := mcp.NewServer(&mcp.Implementation{Name: "gitprof", Version: "0"}, nil)
	repos.Register(server)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		return err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gitprof", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	var last *mcp.CallToolResult
	call := func() (time.Duration, error) {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err == nil && res.IsError {
			err = fmt.Errorf("tool error: %v", res.Content)
		}
		last = res
		return time.Since(start), err
	}
	if cpu != "" && cold {
		stop, err := startCPU(cpu)
		if err != nil {
			return err
		}
		defer stop()
	}
	cpu0 := cpuTime()
	first, err := call()
	firstCPU := cpuTime() - cpu0
	time.Sleep(settle)
	if err != nil {
		return err
	}
	if cpu != "" && !cold {
		stop, err := startCPU(cpu)
		if err != nil {
			return err
		}
		defer stop()
	}
	if dump != "" {
		data, err := json.MarshalIndent(last.StructuredContent, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(dump, data, 0o644); err != nil {
			return err
		}
	}
	var ds []time.Duration
	for range n {
		d, err := call()
		if err != nil {
			return err
		}
		ds = append(ds, d)
	}
	slices.Sort(ds)
	if n == 0 {
		ds = []time.Duration{0}
	}
	fmt.Printf("%s on %s: first %v (CPU %v); warm median %v (min %v, max %v, n=%d)\n", tool, dir, first.Round(time.Microsecond),
		firstCPU.Round(time.Microsecond), ds[len(ds)/2].Round(time.Microsecond), ds[0].Round(time.Microsecond), ds[len(ds)-1].Round(time.Microsecond), n)
	if mem != "" {
		f, err := os.Create(mem)
		if err != nil {
			return err
		}
		defer f.Close()
		return pprof.Lookup("allocs").WriteTo(f, 0)
	}
	return nil
}

// startCPU starts the CPU profiler writing to name and returns the function stopping it.
func startCPU(name string) (func(), error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
