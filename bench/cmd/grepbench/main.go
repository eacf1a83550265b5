// Command grepbench times grove's grep tool against ripgrep and git grep on
// one tree, pattern by pattern, and checks that grove finds the same lines
// as ripgrep. Grove runs over MCP (stdio), one new process per pattern and
// rep, so every call is the first grep of a process ("cold"; the page cache
// is warm); ripgrep and git grep are new processes too. The three are
// interleaved, so load hits them alike.
//
//	go run ./bench/cmd/grepbench -grove bench/out/grove -tree /work/repos/git
//	go run ./bench/cmd/grepbench -grove bench/out/grove -tree /work/repos/git -copies 21 -out /tmp/grepbench-big
//
// With -copies N the tree's files (not its .git) are copied N times below
// -out, which is then searched instead; ripgrep gets --no-require-git there,
// since the copy is no repository but grove honours its .gitignore files.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

// patterns covers the classes the issue names.
var patterns = []struct{ class, expr string }{
	{"literal", `strbuf_addf`},
	{"literal + escape", `xmalloc\(`},
	{"alternation", `TODO|FIXME`},
	{"class + literal", `[a-z]+_release\(&`},
	{"case-insensitive", `(?i)deprecated`},
	{"word boundaries", `\bstatic inline\b`},
	{"anchor", `^#include <`},
	{"anchored end", `\{$`},
	{"no literal", `[A-Z]{6,}_[0-9]+`},
	{"no match", `zqxj_never_there`},
	{"many matches", `return`},
}

func main() {
	grove := flag.String("grove", "bench/out/grove", "grove binary")
	tree := flag.String("tree", "/work/repos/git", "tree to search")
	reps := flag.Int("reps", 3, "runs per pattern and tool")
	copies := flag.Int("copies", 0, "copy the tree this many times below -out and search that")
	out := flag.String("out", "/tmp/grepbench-tree", "where -copies puts the copies")
	only := flag.String("only", "", "run only the patterns of these classes (comma-separated, e.g. literal,alternation)")
	flag.DurationVar(&settle, "settle", 0, "wait this long after initialize before the first grep (lets start-up work in the background, like tool registration and the watcher's first walk, end)")
	warm := flag.Bool("warm", false, "one grove process for every call, timed once its trigram index is ready (see warm.go)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("grepbench: ")
	dir, repo := *tree, true
	if *copies > 0 {
		files, size, err := copyTree(*tree, *out, *copies)
		if err != nil {
			log.Fatal(err)
		}
		log.Printf("%s: %d files, %.2f GB", *out, files, float64(size)/1e9)
		dir, repo = *out, false
	}
	if *warm {
		if err := runWarm(context.Background(), *grove, dir, repo, *reps, *only, os.Stdout); err != nil {
			log.Fatal(err)
		}
		return
	}
	if err := run(context.Background(), *grove, dir, repo, *reps, *only); err != nil {
		log.Fatal(err)
	}
}

// row is one pattern's measurements.
type row struct {
	class, expr   string
	grove, rg, gg []time.Duration // wall
	gCPU, rCPU    []time.Duration // CPU time of the grove server during the call, of rg
	warm, warmCPU []time.Duration // grove's second call in the same process
	lines, rgLine int
	same          string
	peak          int64 // grove's highest peak RSS after a first grep
}

func run(ctx context.Context, grove, dir string, repo bool, reps int, only string) error {
	load0 := benchutil.LoadAvg()
	var rows []row
	for _, p := range patterns {
		if only != "" && !slices.Contains(strings.Split(only, ","), p.class) {
			continue
		}
		r := row{class: p.class, expr: p.expr}
		for range reps {
			gm, gd, gcpu, peak, err := groveGrep(ctx, grove, dir, p.expr)
			if err != nil {
				return fmt.Errorf("grove %s: %w", p.expr, err)
			}
			r.grove, r.gCPU = append(r.grove, gd[0]), append(r.gCPU, gcpu[0])
			r.peak = max(r.peak, peak)
			r.warm, r.warmCPU = append(r.warm, gd[1]), append(r.warmCPU, gcpu[1])
			rm, d, cpu, err := ripgrep(dir, p.expr, repo)
			if err != nil {
				return fmt.Errorf("rg %s: %w", p.expr, err)
			}
			r.rg, r.rCPU = append(r.rg, d), append(r.rCPU, cpu)
			d, _, err = gitGrep(dir, p.expr, repo)
			if err != nil {
				return fmt.Errorf("git grep %s: %w", p.expr, err)
			}
			r.gg = append(r.gg, d)
			r.lines, r.rgLine, r.same = len(gm), len(rm), compare(gm, rm)
		}
		log.Printf("%-18s %-22s grove %v (cpu %v) rg %v (cpu %v) git %v (%d lines, %s)", r.class, r.expr,
			benchutil.Median(r.grove), benchutil.Median(r.gCPU), benchutil.Median(r.rg), benchutil.Median(r.rCPU), benchutil.Median(r.gg), r.lines, r.same)
		rows = append(rows, r)
	}
	report(os.Stdout, grove, dir, reps, load0, rows)
	return nil
}
