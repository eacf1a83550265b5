// Command startbench times grove's start-up over stdio: from just before the
// spawn to the initialize answer's last byte, and the server's CPU time
// (all threads, from /proc/PID/task/*/schedstat) when the answer arrives,
// which the machine's load moves far less than wall time. Several binaries
// (say, before and after a change) are started in turn, N times each, and
// shown side by side, with the time from the spawn to the answer of the
// first tools/list (sent right after the handshake, as clients do).
//
//	go run ./bench/cmd/startbench -n 50 -grove /tmp/grove-before -grove bench/out/grove
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"

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
	for i := range n {
		for k := range bins {
			j := (i + k) % len(bins) // each binary goes first in turn
			c, err := benchutil.StartRaw(ctx, []string{bins[j], "--root", root}, "2025-11-25", io.Discard)
			if err != nil {
				return fmt.Errorf("%s: %w", bins[j], err)
			}
			used, err := c.CPU()
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
		}
	}
	fmt.Printf("start-up, spawn → initialize answer; %s; load average %s before, %s after; N = %d per binary, interleaved\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), load0, benchutil.LoadAvg(), n)
	fmt.Println("| binary | initialize answer: median | p90 | min–max | server CPU by then: median | min–max | tools/list answer: median |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for j, bin := range bins {
		lo, hi := benchutil.Spread(wall[j])
		clo, chi := benchutil.Spread(cpu[j])
		fmt.Printf("| %s (%s) | %s | %s | %s–%s | %s | %s–%s | %s |\n", bin, benchutil.Version(bin),
			benchutil.Ms(benchutil.Median(wall[j])), benchutil.Ms(benchutil.Percentile(wall[j], 90)), benchutil.Ms(lo), benchutil.Ms(hi),
			benchutil.Ms(benchutil.Median(cpu[j])), benchutil.Ms(clo), benchutil.Ms(chi), benchutil.Ms(benchutil.Median(tools[j])))
	}
	return nil
}
