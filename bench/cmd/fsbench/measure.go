package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"slices"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// settle lets a just-started server finish what it does after answering
// initialize before its idle memory is read. It is part of the measurement,
// not synchronisation.
const settle = 200 * time.Millisecond

// startupResult is per server: start-up times and idle RSS of each rep.
type startupResult struct {
	protocol [2]string
	times    [2][]time.Duration
	cpu      [2][]time.Duration // server CPU time used by the initialize answer
	idle     [2][]int64
}

// measureStartup starts each server n times, alternating which goes first.
func measureStartup(ctx context.Context, fl [2]flavor, root string, n int) (startupResult, error) {
	var r startupResult
	for i := range n {
		for k := range 2 {
			j := (i + k) % 2
			p, err := benchutil.StartRaw(ctx, fl[j].argv(root), benchutil.Legacy, nil)
			if err != nil {
				return r, fmt.Errorf("%s: %w", fl[j].name, err)
			}
			cpu, cerr := p.CPU()
			time.Sleep(settle)
			m, err := p.Memory()
			err = errors.Join(err, cerr)
			r.protocol[j] = p.Negotiated()
			_ = p.Close()
			if err != nil {
				return r, err
			}
			r.times[j] = append(r.times[j], p.Startup)
			r.cpu[j] = append(r.cpu[j], cpu)
			r.idle[j] = append(r.idle[j], m.RSS)
		}
	}
	return r, nil
}

// toolResult is per op and server: the first call, then n timed calls.
type toolResult struct {
	first   [numOps][2]time.Duration
	cpu     [numOps][2]time.Duration // server CPU time per call (all threads), mean over the n calls
	times   [numOps][2][]time.Duration
	peak    [2]int64
	sameSet bool   // grove's and the reference's glob answers are the same paths
	setDiff string // else a sample of the difference
}

// measureTools runs every op on one long-lived session per server: a
// checked first call, then n timed calls per server, interleaved.
func measureTools(ctx context.Context, fl [2]flavor, root string, n int, skip [numOps]bool) (toolResult, error) {
	var r toolResult
	var ps [2]*benchutil.Raw
	for j := range 2 {
		p, err := benchutil.StartRaw(ctx, fl[j].argv(root), benchutil.Legacy, nil)
		if err != nil {
			return r, fmt.Errorf("%s: %w", fl[j].name, err)
		}
		defer p.Close()
		ps[j] = p
	}
	for i := range ops {
		if skip[i] {
			continue
		}
		if err := r.firstCalls(ctx, fl, ps, root, i); err != nil {
			return r, err
		}
		if err := r.timedCalls(ctx, fl, ps, root, i, n); err != nil {
			return r, err
		}
	}
	for j := range 2 {
		m, err := ps[j].Memory()
		if err != nil {
			return r, err
		}
		r.peak[j] = m.Peak
	}
	return r, nil
}

// firstCalls makes op i's first call on each server and checks its answer.
func (r *toolResult) firstCalls(ctx context.Context, fl [2]flavor, ps [2]*benchutil.Raw, root string, i int) error {
	var globs [2][]string
	for j := range 2 {
		d, check, paths, err := timed(fl[j], ps[j], root, i)
		if err != nil {
			return err
		}
		if check != ops[i].want {
			return fmt.Errorf("%s %s: got %s, want %s", fl[j].name, ops[i].name, check, ops[i].want)
		}
		r.first[i][j], globs[j] = d, paths
	}
	if globs[0] != nil {
		r.sameSet, r.setDiff = compareSets(globs[0], globs[1])
	}
	return nil
}

// timedCalls makes n calls of op i per server, alternating which goes first,
// and the servers' CPU time over them.
func (r *toolResult) timedCalls(ctx context.Context, fl [2]flavor, ps [2]*benchutil.Raw, root string, i, n int) error {
	var cpu0 [2]time.Duration
	for j := range 2 {
		var err error
		if cpu0[j], err = ps[j].CPU(); err != nil {
			return err
		}
	}
	for rep := range n {
		for k := range 2 {
			j := (rep + k) % 2
			d, _, _, err := timed(fl[j], ps[j], root, i)
			if err != nil {
				return err
			}
			r.times[i][j] = append(r.times[i][j], d)
		}
	}
	for j := range 2 {
		cpu1, err := ps[j].CPU()
		if err != nil {
			return err
		}
		r.cpu[i][j] = (cpu1 - cpu0[j]) / time.Duration(n)
	}
	return nil
}

func timed(f flavor, c *benchutil.Raw, root string, i int) (time.Duration, string, []string, error) {
	d, check, paths, err := f.run(c, root, i)
	if err != nil {
		return 0, "", nil, fmt.Errorf("%s %s: %w", f.name, ops[i].name, err)
	}
	return d, check, paths, nil
}

func compareSets(a, b []string) (bool, string) {
	if slices.Equal(a, b) {
		return true, ""
	}
	var onlyA, onlyB []string
	for _, s := range a {
		if _, ok := slices.BinarySearch(b, s); !ok && len(onlyA) < 3 {
			onlyA = append(onlyA, s)
		}
	}
	for _, s := range b {
		if _, ok := slices.BinarySearch(a, s); !ok && len(onlyB) < 3 {
			onlyB = append(onlyB, s)
		}
	}
	return false, fmt.Sprintf("only grove: %q; only reference: %q", onlyA, onlyB)
}

// resourceResult is grove's paginated resources/list of a large tree.
type resourceResult struct {
	files int
	pages int
	times []time.Duration
	cpu   []time.Duration // server CPU time for the whole listing
	peak  []int64
}

func measureResources(ctx context.Context, bin, dir string, files, reps int) (resourceResult, error) {
	r := resourceResult{files: files}
	for range reps {
		p, err := benchutil.Start(ctx, benchutil.Spec{Argv: []string{bin, "--root", dir}, Protocol: benchutil.Legacy})
		if err != nil {
			return r, err
		}
		cpu0, cerr0 := p.CPU()
		start := time.Now()
		n, pages, err := listAll(ctx, p.Session)
		d := time.Since(start)
		cpu1, cerr1 := p.CPU()
		m, merr := p.Memory()
		_ = p.Close()
		if err = errors.Join(err, merr, cerr0, cerr1); err != nil {
			return r, err
		}
		if n != files {
			return r, fmt.Errorf("resources/list gave %d resources, want %d", n, files)
		}
		log.Printf("resources/list: %d resources in %d pages, %v, peak %d MB", n, pages, d, m.Peak>>20)
		r.pages = pages
		r.times = append(r.times, d)
		r.cpu = append(r.cpu, cpu1-cpu0)
		r.peak = append(r.peak, m.Peak)
	}
	return r, nil
}

func listAll(ctx context.Context, cs *mcp.ClientSession) (n, pages int, err error) {
	params := &mcp.ListResourcesParams{}
	for {
		res, err := cs.ListResources(ctx, params)
		if err != nil {
			return n, pages, fmt.Errorf("resources/list page %d: %w", pages+1, err)
		}
		n += len(res.Resources)
		pages++
		if res.NextCursor == "" {
			return n, pages, nil
		}
		params = &mcp.ListResourcesParams{Cursor: res.NextCursor}
	}
}
