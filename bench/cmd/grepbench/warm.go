package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"slices"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

// With -warm one grove process serves every call: its first grep starts the trigram index build,
// grepbench waits until list_roots reports the index ready, then times each pattern in that process
// (warm: index built, page cache warm) interleaved with rg, over the raw JSON-RPC client as the cold
// calls are.

// indexInfo is the grep_index of a root in list_roots.
type indexInfo struct {
	State     string `json:"state"`
	Files     int    `json:"files"`
	Skipped   int    `json:"skipped"`
	TextBytes int64  `json:"text_bytes"`
	Bytes     int64  `json:"bytes"`
}

// warmRun is what runWarm measured besides the rows.
type warmRun struct {
	build      time.Duration // from the first grep's start until list_roots said ready
	index      indexInfo
	rss, peak  int64 // grove's resident memory after the build, and its high-water mark at the end
	load0, dir string
}

func runWarm(ctx context.Context, grove, dir string, repo bool, reps int, only string, w io.Writer) error {
	wr := warmRun{load0: benchutil.LoadAvg(), dir: dir}
	p, err := benchutil.StartRaw(ctx, []string{grove, "--root", dir}, benchutil.Legacy, nil)
	if err != nil {
		return err
	}
	defer p.Close()
	start := time.Now()
	if _, _, err := callGrep(p, "grepbench_warm_up_token"); err != nil {
		return err
	}
	if wr.index, err = waitIndex(p); err != nil {
		return err
	}
	wr.build = time.Since(start)
	if m, err := p.Memory(); err == nil {
		wr.rss = m.RSS
	}
	log.Printf("index ready in %v: %+v", wr.build, wr.index)
	var rows []row
	for _, pat := range patterns {
		if only != "" && !slices.Contains(strings.Split(only, ","), pat.class) {
			continue
		}
		r := row{class: pat.class, expr: pat.expr}
		for range reps {
			cpu0, _ := p.CPU()
			gm, d, err := callGrep(p, pat.expr)
			if err != nil {
				// An answer too large for the transport (a million lines on a big tree) is a
				// limit of the answer, not of the index: say so and go on.
				log.Printf("grove %s: %v", pat.expr, err)
				r.same = "grove failed: " + err.Error()
				break
			}
			cpu1, _ := p.CPU()
			r.grove, r.gCPU = append(r.grove, d), append(r.gCPU, cpu1-cpu0)
			rm, d, cpu, err := ripgrep(dir, pat.expr, repo)
			if err != nil {
				return fmt.Errorf("rg %s: %w", pat.expr, err)
			}
			r.rg, r.rCPU = append(r.rg, d), append(r.rCPU, cpu)
			r.lines, r.rgLine, r.same = len(gm), len(rm), compare(gm, rm)
		}
		if len(r.grove) == 0 {
			rows = append(rows, r)
			continue
		}
		log.Printf("%-18s %-22s grove warm %v rg %v (%d lines, %s)", r.class, r.expr,
			benchutil.Median(r.grove), benchutil.Median(r.rg), r.lines, r.same)
		rows = append(rows, r)
	}
	if m, err := p.Memory(); err == nil {
		wr.peak = m.Peak
	}
	reportWarm(w, grove, reps, wr, rows)
	return nil
}

// callGrep greps in a running grove; it returns the matches and the call's wall time, until the
// answer's last byte (as the cold calls are timed: no client's decoding counted).
func callGrep(p *benchutil.Raw, expr string) ([]match, time.Duration, error) {
	resume := benchutil.QuietGC()
	res, d, err := p.CallTool("grep", map[string]any{"pattern": expr, "max_results": allLines})
	resume()
	if err != nil {
		return nil, 0, err
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
		return nil, 0, err
	}
	ms := make([]match, len(out.Matches))
	for i, m := range out.Matches {
		ms[i] = match{m.Path, m.Line, m.Text}
	}
	return ms, d, nil
}

// waitIndex asks list_roots until the root's index is ready.
func waitIndex(p *benchutil.Raw) (indexInfo, error) {
	deadline := time.Now().Add(10 * time.Minute)
	for time.Now().Before(deadline) {
		res, _, err := p.CallTool("list_roots", map[string]any{})
		if err != nil {
			return indexInfo{}, err
		}
		var out struct {
			Roots []struct {
				GrepIndex *indexInfo `json:"grep_index"`
			} `json:"roots"`
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil {
			return indexInfo{}, err
		}
		if len(out.Roots) == 1 && out.Roots[0].GrepIndex != nil {
			ix := *out.Roots[0].GrepIndex
			switch {
			case ix.State == "ready":
				return ix, nil
			case ix.State != "building":
				return ix, fmt.Errorf("no index: %s", ix.State)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return indexInfo{}, fmt.Errorf("no index after 10 minutes")
}

// reportWarm prints the Markdown table of a warm run: medians, the grove/rg ratio against the 0.3x
// goal, and the index's build time and memory.
func reportWarm(w io.Writer, grove string, reps int, wr warmRun, rows []row) {
	ix := wr.index
	fmt.Fprintf(w, "warm grep on %s; grove %s; %s; %d reps; load average %s before, %s after\n\n",
		wr.dir, benchutil.Version(grove), time.Now().UTC().Format("2006-01-02 15:04 UTC"), reps, wr.load0, benchutil.LoadAvg())
	fmt.Fprintf(w, "index: %d files (%d skipped), %s of text, %s of index (%.2fx the text), built in %s (first grep to ready); "+
		"grove RSS %s after the build, peak %s\n\n", ix.Files, ix.Skipped, benchutil.MB(ix.TextBytes), benchutil.MB(ix.Bytes),
		float64(ix.Bytes)/float64(max(ix.TextBytes, 1)), benchutil.Ms(wr.build), benchutil.MB(wr.rss), benchutil.MB(wr.peak))
	fmt.Fprintln(w, "| class | pattern | grove warm (median) | rg (median) | grove/rg | goal ≤ 0.3x | CPU grove / rg | lines | same lines as rg |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		if len(r.grove) == 0 {
			fmt.Fprintf(w, "| %s | `%s` | – | – | – | – | – | – | %s |\n", r.class, strings.ReplaceAll(r.expr, "|", `\|`), r.same)
			continue
		}
		g, rg := benchutil.Median(r.grove), benchutil.Median(r.rg)
		ratio := float64(g) / float64(rg)
		fmt.Fprintf(w, "| %s | `%s` | %s | %s | %.2fx | %s | %s / %s | %d | %s |\n", r.class, strings.ReplaceAll(r.expr, "|", `\|`),
			benchutil.Ms(g), benchutil.Ms(rg), ratio, benchutil.Verdict(ratio, 0.3),
			benchutil.Ms(benchutil.Median(r.gCPU)), benchutil.Ms(benchutil.Median(r.rCPU)), r.lines, r.same)
	}
}
