package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

// result is one repository's measurements.
type result struct {
	repo, head                 string
	commits                    int
	patchSame, patchSame7      int // byte-identical patches; identical once index hashes are cut to 7 digits
	numstatSame, showSame      int
	capped                     int // patches grove cut at its size cap (compared up to the cut)
	errors                     int
	groveDiff, gitDiff         []time.Duration
	groveShow, gitShow         []time.Duration
	bigGrove, bigGit           []time.Duration
	bigFilesGrove, bigFilesGit int
	mismatches                 []string
}

type diffFile struct {
	Path    string `json:"path"`
	OldPath string `json:"old_path"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
	Binary  bool   `json:"binary"`
}

type diffOut struct {
	Files     []diffFile `json:"files"`
	Patch     string     `json:"patch"`
	Truncated bool       `json:"truncated"`
}

func run(cfg config, dir string) (*result, error) {
	head, _, err := runGit(dir, "rev-parse", "HEAD")
	if err != nil {
		return nil, err
	}
	commits, err := sample(dir, cfg.n, cfg.seed)
	if err != nil {
		return nil, err
	}
	var stderr strings.Builder
	c, err := benchutil.StartRaw(context.Background(), []string{cfg.grove, "--root", dir, "--log-level", "warn"}, cfg.protocol, &stderr)
	if err != nil {
		return nil, fmt.Errorf("starting grove: %w (stderr: %.500s)", err, stderr.String())
	}
	defer c.Close()
	r := &result{repo: dir, head: strings.TrimSpace(string(head)), commits: len(commits)}
	for _, h := range commits {
		if err := r.one(cfg, c, dir, h); err != nil {
			r.errors++
			r.note(cfg, h, "error", err.Error(), "")
		}
	}
	if cfg.bigReps > 0 {
		r.big(cfg, c, dir)
	}
	return r, nil
}

// one compares one commit's diff, numstat and show.
func (r *result) one(cfg config, c *benchutil.Raw, dir, h string) error {
	res, dg, err := c.CallTool("git_diff", map[string]any{"target": h + "~1.." + h})
	if err != nil {
		return err
	}
	var d diffOut
	if err := structured(res, &d); err != nil {
		return err
	}
	want, dgit, err := runGit(dir, "diff", h+"~1", h)
	if err != nil {
		return err
	}
	r.groveDiff, r.gitDiff = append(r.groveDiff, dg), append(r.gitDiff, dgit)
	got := d.Patch
	if d.Truncated {
		r.capped++
		got = got[:strings.LastIndex(got, "\n… patch cut")]
		want = want[:min(len(want), len(got))]
	}
	if got == string(want) {
		r.patchSame++
	} else {
		r.note(cfg, h, "diff", got, string(want))
	}
	if short7(got) == short7(string(want)) {
		r.patchSame7++
	}
	ns, _, err := runGit(dir, "diff", "--numstat", "-z", h+"~1", h)
	if err != nil {
		return err
	}
	if g, w := strings.Join(groveNumstat(d.Files), "\n"), strings.Join(parseNumstat(ns), "\n"); g == w {
		r.numstatSame++
	} else {
		r.note(cfg, h, "numstat", g, w)
	}
	sres, sg, err := c.CallTool("git_show", map[string]any{"revision": h})
	if err != nil {
		return err
	}
	show, err := benchutil.Text(sres, nil)
	if err != nil {
		return err
	}
	wantShow, sgit, err := runGit(dir, "show", h)
	if err != nil {
		return err
	}
	r.groveShow, r.gitShow = append(r.groveShow, sg), append(r.gitShow, sgit)
	if i := strings.LastIndex(show, "\n… patch cut"); i >= 0 {
		show = show[:i]
		wantShow = wantShow[:min(len(wantShow), len(show))]
	}
	if show == string(wantShow) {
		r.showSame++
	} else {
		r.note(cfg, h, "show", show, string(wantShow))
	}
	return nil
}

// big times HEAD~200..HEAD both ways, interleaved.
func (r *result) big(cfg config, c *benchutil.Raw, dir string) {
	for i := 0; i < cfg.bigReps; i++ {
		res, d, err := c.CallTool("git_diff", map[string]any{"target": "HEAD~200..HEAD"})
		if err != nil {
			return
		}
		var out diffOut
		if structured(res, &out) == nil {
			r.bigFilesGrove = len(out.Files)
		}
		r.bigGrove = append(r.bigGrove, d)
		ns, dgit, err := runGit(dir, "diff", "HEAD~200", "HEAD")
		if err != nil {
			return
		}
		r.bigGit = append(r.bigGit, dgit)
		r.bigFilesGit = strings.Count(string(ns), "\ndiff --git ") + 1
	}
}

func groveNumstat(files []diffFile) []string {
	var out []string
	for _, f := range files {
		a, d := strconv.Itoa(f.Added), strconv.Itoa(f.Deleted)
		if f.Binary {
			a, d = "-", "-"
		}
		p := f.Path
		if f.OldPath != "" {
			p = f.OldPath + " => " + f.Path
		}
		out = append(out, a+"\t"+d+"\t"+p)
	}
	return out
}

var indexLine = regexp.MustCompile(`(?m)^index ([0-9a-f]{7})[0-9a-f]*\.\.([0-9a-f]{7})[0-9a-f]*`)

// short7 cuts the hashes of index lines to 7 digits.
func short7(p string) string { return indexLine.ReplaceAllString(p, "index $1..$2") }

// note keeps the first mismatches for reading.
func (r *result) note(cfg config, h, kind, got, want string) {
	r.mismatches = append(r.mismatches, kind+" "+h[:12])
	if cfg.out == "" || len(r.mismatches) > 40 {
		return
	}
	os.MkdirAll(cfg.out, 0o755)
	base := filepath.Join(cfg.out, h[:12]+"."+kind)
	os.WriteFile(base+".grove", []byte(got), 0o644)
	os.WriteFile(base+".git", []byte(want), 0o644)
}

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
