package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type setupResult struct {
	files, dirs int
	big, empty  []time.Duration // spawn → first list_roots answer
	bigSub      []time.Duration // spawn → first resources/subscribe answer (grove answers once the watches are in place)
	bigCPU      []time.Duration // server CPU time used by then
	bigRSS      []int64         // VmRSS right after that answer
	emptyRSS    []int64
	watching    string // list_roots' watching field on the big tree ("" = healthy)
}

// measureSetup times spawn → first list_roots answer on the big tree and on
// an empty directory, reps times each, interleaved; RSS delta is big − empty.
func measureSetup(ctx context.Context, bin, base string, reps int) (setupResult, error) {
	var r setupResult
	big, empty := filepath.Join(base, "watchtree"), filepath.Join(base, "empty")
	var err error
	if r.files, r.dirs, err = benchutil.MakeWatchTree(big, 50, 99, 10); err != nil {
		return r, err
	}
	if err := os.MkdirAll(empty, 0o755); err != nil {
		return r, err
	}
	for range reps {
		for _, dir := range []string{big, empty} {
			d, sub, cpu, rss, watching, err := firstAnswers(ctx, bin, dir)
			if err != nil {
				return r, err
			}
			if dir == big {
				r.big, r.bigRSS, r.watching = append(r.big, d), append(r.bigRSS, rss), watching
				r.bigCPU, r.bigSub = append(r.bigCPU, cpu), append(r.bigSub, sub)
			} else {
				r.empty, r.emptyRSS = append(r.empty, d), append(r.emptyRSS, rss)
			}
		}
	}
	return r, nil
}

// firstAnswers starts grove on dir and times its first list_roots answer,
// then its first resources/subscribe answer: grove answers a subscription
// once the roots' watches are in place, so that time is the watch set-up.
// CPU and RSS are read after both.
func firstAnswers(ctx context.Context, bin, dir string) (list, sub, cpu time.Duration, rss int64, watching string, err error) {
	t0 := time.Now()
	p, err := benchutil.Start(ctx, benchutil.Spec{Argv: []string{bin, "--root", dir}, Protocol: benchutil.Legacy})
	if err != nil {
		return 0, 0, 0, 0, "", err
	}
	defer p.Close()
	res, err := p.Session.CallTool(ctx, &mcp.CallToolParams{Name: "list_roots"})
	list = time.Since(t0)
	if _, err := benchutil.Text(res, err); err != nil {
		return 0, 0, 0, 0, "", err
	}
	var out struct {
		Watching string `json:"watching"`
	}
	if err := structured(res, &out); err != nil {
		return 0, 0, 0, 0, "", err
	}
	if err := p.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(filepath.Join(dir, "probe.txt"))}); err != nil {
		return 0, 0, 0, 0, "", fmt.Errorf("subscribing: %w", err)
	}
	sub = time.Since(t0)
	cpu, cerr := p.CPU()
	m, err := p.Memory()
	return list, sub, cpu, m.RSS, out.Watching, errors.Join(err, cerr)
}
