// Command startbench times grove's start-up over stdio: from just before the
// spawn to the initialize answer's last byte, and the server's CPU time
// (all threads, from /proc/PID/task/*/schedstat) when the answer arrives,
// which the machine's load moves far less than wall time, with its minor
// page faults and threads by then (/proc/PID/stat), which the load does not
// move at all: on a virtual machine a page fault costs tens of microseconds,
// and they are most of a Go program's start-up. Several binaries
// (say, before and after a change) are started in turn, N times each, and
// shown side by side, with the time from the spawn to the answer of the
// first tools/list (sent right after the handshake, as clients do).
//
//	go run ./bench/cmd/startbench -n 50 -grove /tmp/grove-before -grove bench/out/grove
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

func main() {
	var bins stringList
	flag.Var(&bins, "grove", "grove binary (repeatable)")
	n := flag.Int("n", 40, "spawns per binary")
	root := flag.String("root", ".", "the --root each spawn gets")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("startbench: ")
	if len(bins) == 0 {
		bins = stringList{"bench/out/grove"}
	}
	if err := run(context.Background(), bins, *n, *root); err != nil {
		log.Fatal(err)
	}
}

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

func run(ctx context.Context, bins []string, n int, root string) error {
	load0 := benchutil.LoadAvg()
	wall := make([][]time.Duration, len(bins))
	cpu := make([][]time.Duration, len(bins))
	tools := make([][]time.Duration, len(bins))
	faults := make([][]time.Duration, len(bins)) // counts, kept as durations for benchutil's statistics
	threads := make([][]time.Duration, len(bins))
	for i := range n {
		for k := range bins {
			j := (i + k) % len(bins) // each binary goes first in turn
			c, err := benchutil.StartRaw(ctx, []string{bins[j], "--root", root}, "2025-11-25", io.Discard)
			if err != nil {
				return fmt.Errorf("%s: %w", bins[j], err)
			}
			used, err := c.CPU()
			flt, thr := procCounts(c.PID())
			var list struct {
				Tools []struct{ Name string } `json:"tools"`
			}
			d, lerr := c.Call("tools/list", map[string]any{}, &list)
			_ = c.Close()
			if err != nil {
				return err
			}
			if lerr != nil || len(list.Tools) == 0 {
				return fmt.Errorf("%s: tools/list: %d tools, %v", bins[j], len(list.Tools), lerr)
			}
			wall[j] = append(wall[j], c.Startup)
			cpu[j] = append(cpu[j], used)
			tools[j] = append(tools[j], c.Startup+d)
			faults[j] = append(faults[j], time.Duration(flt))
			threads[j] = append(threads[j], time.Duration(thr))
		}
	}
	fmt.Printf("start-up, spawn → initialize answer; %s; load average %s before, %s after; N = %d per binary, interleaved\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), load0, benchutil.LoadAvg(), n)
	fmt.Println("| binary | initialize answer: median | p90 | min–max | server CPU by then: median | min–max | page faults by then: median | threads | tools/list answer: median |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for j, bin := range bins {
		lo, hi := benchutil.Spread(wall[j])
		clo, chi := benchutil.Spread(cpu[j])
		fmt.Printf("| %s (%s) | %s | %s | %s–%s | %s | %s–%s | %d | %d | %s |\n", bin, benchutil.Version(bin),
			benchutil.Ms(benchutil.Median(wall[j])), benchutil.Ms(benchutil.Percentile(wall[j], 90)), benchutil.Ms(lo), benchutil.Ms(hi),
			benchutil.Ms(benchutil.Median(cpu[j])), benchutil.Ms(clo), benchutil.Ms(chi),
			int64(benchutil.Median(faults[j])), int64(benchutil.Median(threads[j])), benchutil.Ms(benchutil.Median(tools[j])))
	}
	return nil
}

// procCounts returns a process's minor page faults and threads so far, from
// /proc/PID/stat (fields 10 and 20, counted from the last ')', after which
// the state is field 3); -1 when it cannot be read.
func procCounts(pid int) (minflt, threads int64) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1, -1
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return -1, -1
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 18 {
		return -1, -1
	}
	minflt, err1 := strconv.ParseInt(string(f[10-3]), 10, 64)
	threads, err2 := strconv.ParseInt(string(f[20-3]), 10, 64)
	if err1 != nil || err2 != nil {
		return -1, -1
	}
	return minflt, threads
}
