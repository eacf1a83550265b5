// Command pagebench times resources/list through every page of one
// directory of many files, over stdio against a built grove: total time,
// per-page median, p99 and max, and the server's peak RSS (VmHWM) after the
// last page. The directory is made once and kept under the cache directory,
// since writing 200,000 files takes longer than listing them.
//
//	go run ./bench/cmd/pagebench -grove bench/out/grove -files 200000
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

func main() {
	var bins stringList
	flag.Var(&bins, "grove", "grove binary (repeatable: the runs are interleaved, one table row each)")
	files := flag.Int("files", 200_000, "files in the directory")
	reps := flag.Int("reps", 3, "full listings per binary, each in a new process")
	cache := flag.String("cache", "", "where the directory is kept (default: the user cache directory/grove-pagebench)")
	flag.DurationVar(&settle, "settle", 0, "wait this long after initialize before the first page (lets start-up work in the background, like the watcher's first walk, end)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("pagebench: ")
	if len(bins) == 0 {
		bins = stringList{"bench/out/grove"}
	}
	if err := run(context.Background(), bins, *files, *reps, *cache); err != nil {
		log.Fatal(err)
	}
}

// settle is the wait before the first page.
var settle time.Duration

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// result is one binary's measurements over its reps.
type result struct {
	totals []time.Duration
	pages  []time.Duration // every page of every rep
	first  []time.Duration // the first page of each rep
	peak   int64           // highest VmHWM over the reps
	n      int             // pages per listing
}

func run(ctx context.Context, bins []string, files, reps int, cache string) error {
	dir, err := flatDir(cache, files)
	if err != nil {
		return err
	}
	load0 := benchutil.LoadAvg()
	res := make([]result, len(bins))
	for rep := range reps {
		for i, bin := range bins {
			if err := listOnce(ctx, bin, dir, files, &res[i]); err != nil {
				return fmt.Errorf("%s: %w", bin, err)
			}
			r := &res[i]
			log.Printf("%s rep %d: %d pages, %v, peak %s", bin, rep+1, r.n, r.totals[len(r.totals)-1].Round(time.Millisecond), benchutil.MB(r.peak))
		}
	}
	fmt.Printf("resources/list, every page of one directory of %d files; %s; load average %s before, %s after; %d reps; first page %v after initialize\n\n",
		files, time.Now().UTC().Format("2006-01-02 15:04 UTC"), load0, benchutil.LoadAvg(), reps, settle)
	fmt.Println("| binary | pages | total (median) | total min–max | first page (median) | page median | page p99 | page max | peak RSS (VmHWM) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for i, bin := range bins {
		r := res[i]
		lo, hi := benchutil.Spread(r.totals)
		_, pmax := benchutil.Spread(r.pages)
		fmt.Printf("| %s (%s) | %d | %s | %s–%s | %s | %s | %s | %s | %s |\n", bin, benchutil.Version(bin), r.n,
			benchutil.Ms(benchutil.Median(r.totals)), benchutil.Ms(lo), benchutil.Ms(hi), benchutil.Ms(benchutil.Median(r.first)),
			benchutil.Ms(benchutil.Median(r.pages)), benchutil.Ms(benchutil.Percentile(r.pages, 99)), benchutil.Ms(pmax), benchutil.MB(r.peak))
	}
	return nil
}

// listOnce starts bin on dir and lists every page, checking the count.
func listOnce(ctx context.Context, bin, dir string, files int, r *result) error {
	var stderr bytes.Buffer // the server's log, shown if it fails
	c, err := benchutil.StartRaw(ctx, []string{bin, "--root", dir}, "2025-11-25", &stderr)
	if err != nil {
		return fmt.Errorf("%w\n%s", err, stderr.Bytes())
	}
	defer c.Close()
	time.Sleep(settle)
	var total time.Duration
	n, pages := 0, 0
	params := map[string]any{}
	for {
		var page struct {
			Resources  []struct{ URI string } `json:"resources"`
			NextCursor string                 `json:"nextCursor"`
		}
		d, err := c.Call("resources/list", params, &page)
		if err != nil {
			return fmt.Errorf("page %d: %w\n%s", pages+1, err, stderr.Bytes())
		}
		if pages == 0 {
			r.first = append(r.first, d)
		}
		r.pages = append(r.pages, d)
		total += d
		pages++
		n += len(page.Resources)
		if page.NextCursor == "" {
			break
		}
		params = map[string]any{"cursor": page.NextCursor}
	}
	m, err := c.Memory()
	if err != nil {
		return err
	}
	if n != files {
		return fmt.Errorf("listed %d resources, want %d", n, files)
	}
	r.totals = append(r.totals, total)
	r.peak = max(r.peak, m.Peak)
	r.n = pages
	return nil
}

// flatDir returns a directory holding exactly n files, made once under cache.
func flatDir(cache string, n int) (string, error) {
	if cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		cache = filepath.Join(base, "grove-pagebench")
	}
	dir := filepath.Join(cache, fmt.Sprintf("flat%d", n))
	done := dir + ".done"
	if _, err := os.Stat(done); err == nil {
		return filepath.EvalSymlinks(dir)
	}
	log.Printf("writing %d files into %s (once)", n, dir)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for i := range n {
		name := filepath.Join(dir, fmt.Sprintf("file-%07d.txt", (i*7919)%n)) // written out of name order
		if err := os.WriteFile(name, []byte("x\n"), 0o644); err != nil {
			return "", err
		}
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(dir)
}
