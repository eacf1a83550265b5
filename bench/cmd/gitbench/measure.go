package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"
)

// firstResult is the first call after start-up, over several fresh grove processes.
type firstResult struct {
	call    []time.Duration
	startup []time.Duration
	rss     int64 // largest VmHWM right after the first call
	err     string
}

// opResult is everything measured for one operation.
type opResult struct {
	op          op
	first       firstResult
	grove, git  []time.Duration
	groveErr    string
	check       string
	checkOK     bool
	gitErr      string
	groveFirstW time.Duration // the session's (discarded) warm-up call
	groveCPU    time.Duration // grove's CPU time per warm call (all threads, background work included)
	gitCPU      time.Duration // git's CPU time per run (user + system)
}

type repoResult struct {
	meta    meta
	dir     string
	ops     []opResult
	peakRSS int64 // VmHWM at the end of the warm session
	startup time.Duration
}

// firstCalls starts grove cfg.first times and times the first call of o in each.
func firstCalls(ctx context.Context, cfg config, dir string, o op) (firstResult, error) {
	var fr firstResult
	for range cfg.first {
		restore, err := modify(dir, o.modify)
		if err != nil {
			return fr, err
		}
		p, err := startGrove(ctx, cfg, dir)
		if err != nil {
			restore()
			return fr, err
		}
		time.Sleep(cfg.pause)
		_, d, callErr := p.call(ctx, o.tool, o.withRepo(dir))
		rss, _ := p.peakRSS()
		_ = p.close()
		restore()
		if callErr != nil {
			fr.err = callErr.Error()
			return fr, nil
		}
		fr.call = append(fr.call, d)
		fr.startup = append(fr.startup, p.startup)
		fr.rss = max(fr.rss, rss)
	}
	return fr, nil
}

// warmSession runs every operation in one grove session: a warm-up call (also used for the output check),
// then cfg.n grove calls interleaved with cfg.n git runs. It records VmHWM at the end.
func warmSession(ctx context.Context, cfg config, dir string, res *repoResult) error {
	p, err := startGrove(ctx, cfg, dir)
	if err != nil {
		return err
	}
	defer p.close()
	res.startup = p.startup
	for i := range res.ops {
		if err := warmOp(ctx, cfg, p, dir, &res.ops[i]); err != nil {
			return fmt.Errorf("%s: %w", res.ops[i].op.name, err)
		}
	}
	res.peakRSS, err = p.peakRSS()
	return err
}

func warmOp(ctx context.Context, cfg config, p *groveProc, dir string, r *opResult) error {
	o := r.op
	restore, err := modify(dir, o.modify)
	if err != nil {
		return err
	}
	defer restore()
	args := o.withRepo(dir)
	res, d, groveErr := p.call(ctx, o.tool, args)
	r.groveFirstW = d
	gitOut, gitErr := runGit(dir, o.git...)
	if gitErr != nil {
		r.gitErr = gitErr.Error()
	}
	if groveErr != nil {
		r.groveErr = groveErr.Error()
		log.Printf("  %s: grove: %v", o.name, groveErr)
	} else if gitErr == nil {
		r.check, r.checkOK = o.check(res, gitOut)
		if o.paths != nil {
			listing, err := runGit(dir, o.paths...)
			if err != nil {
				return err
			}
			desc, ok := samePaths(res, listing)
			r.check, r.checkOK = r.check+"; "+desc, r.checkOK && ok
		}
	}
	var groveCPU, gitCPU time.Duration
	for range cfg.n {
		if r.groveErr == "" {
			before := p.cpuTime()
			_, d, err := p.call(ctx, o.tool, args)
			groveCPU += p.cpuTime() - before
			if err != nil {
				r.groveErr = err.Error()
			} else {
				r.grove = append(r.grove, d)
			}
		}
		if r.gitErr == "" {
			start := time.Now()
			_, cpu, err := runGitCPU(dir, o.git...)
			if err != nil {
				r.gitErr = err.Error()
			}
			r.git = append(r.git, time.Since(start))
			gitCPU += cpu
		}
	}
	if len(r.grove) > 0 {
		r.groveCPU = groveCPU / time.Duration(len(r.grove))
	}
	if len(r.git) > 0 {
		r.gitCPU = gitCPU / time.Duration(len(r.git))
	}
	log.Printf("  %-45s grove %8.1f ms  git %8.1f ms  %s", o.name, ms(median(r.grove)), ms(median(r.git)), r.check)
	return nil
}

// modify appends a line to each file and returns a function putting back its content and times.
func modify(dir string, paths []string) (func(), error) {
	type saved struct {
		path string
		data []byte
		info os.FileInfo
	}
	var done []saved
	restore := func() {
		for _, s := range done {
			if err := os.WriteFile(s.path, s.data, s.info.Mode()); err != nil {
				log.Printf("restoring %s: %v", s.path, err)
			}
			_ = os.Chtimes(s.path, s.info.ModTime(), s.info.ModTime())
		}
	}
	for _, rel := range paths {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		info, err := os.Stat(p)
		if err != nil {
			restore()
			return nil, err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			restore()
			return nil, err
		}
		done = append(done, saved{p, data, info})
		if err := os.WriteFile(p, append(data, "// edited by gitbench\n"...), info.Mode()); err != nil {
			restore()
			return nil, err
		}
	}
	return restore, nil
}
