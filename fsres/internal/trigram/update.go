package trigram

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/grove-mcp/grove/internal/panics"
)

type applied int

const (
	applyOK      applied = iota
	applyRebuild         // too many changes, the root itself changed, or the memory cap was reached
	applyRelist          // ignore rules may have changed: the file list must be walked again
)

// apply brings r's index up to date with the changed paths. r.mu held.
func (s *Indexes) apply(ctx context.Context, r *rootIndex, paths []string) applied {
	return applyTo(ctx, r.tree, r.x, r.root, paths)
}

// applyTo updates x (the index of the tree at root) for the changed absolute paths: a file is read
// again, a directory walked again, a path gone forgotten with everything below it.
func applyTo(ctx context.Context, tree Tree, x *Index, root string, paths []string) applied {
	if len(paths) > maxInline {
		return applyRebuild
	}
	left, relist := maxInline, false
	for _, p := range paths {
		rel, ok := relPath(root, p)
		if !ok {
			if p == root {
				return applyRebuild
			}
			continue
		}
		if inGit, rules := gitPath(rel); inGit {
			relist = relist || rules
			continue
		}
		if path.Base(rel) == ".gitignore" {
			relist = true
		}
		n, err := applyPath(ctx, tree, x, rel, left)
		if err != nil {
			return applyRebuild
		}
		left -= n
	}
	if relist {
		return applyRelist
	}
	return applyOK
}

// gitPath reports whether rel is at or below a .git directory, and whether it is one of the files
// the ignore rules come from there: the index (tracked files are never ignored) or info/exclude.
func gitPath(rel string) (inGit, rules bool) {
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		if s != ".git" {
			continue
		}
		rest := segs[i+1:]
		rules = len(rest) == 0 || rest[0] == "index" || rest[0] == "info"
		return true, rules
	}
	return false, false
}

var errTooMany = errors.New("trigram index: too many changes at once")

// applyPath updates x for rel, reading at most left files; it returns how many it read.
func applyPath(ctx context.Context, tree Tree, x *Index, rel string, left int) (int, error) {
	mode, err := tree.Lstat(rel)
	switch {
	case err != nil:
		x.RemoveUnder(rel)
		return 0, nil
	case mode.IsRegular():
		x.RemoveUnder(rel) // it may have been a directory
		if tree.Ignored(rel, false) {
			return 0, nil
		}
		return 1, updateFile(tree, x, rel)
	case mode.IsDir():
		if tree.Ignored(rel, true) {
			x.RemoveUnder(rel)
			return 0, nil
		}
		return applyDir(ctx, tree, x, rel, left)
	}
	x.RemoveUnder(rel) // a symlink, FIFO, socket or device: never opened, never searched
	return 0, nil
}

// applyDir reads again every file below the directory rel (created, renamed in, or changed in ways
// its files' own events may not tell) and forgets the ones no longer there.
func applyDir(ctx context.Context, tree Tree, x *Index, rel string, left int) (int, error) {
	var files []string
	err := tree.Walk(ctx, rel, func(p string, d fs.DirEntry) error {
		if d.Type().IsRegular() {
			if len(files) == left {
				return errTooMany
			}
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return len(files), err
	}
	keep := make(map[string]bool, len(files))
	for _, f := range files {
		keep[f] = true
	}
	x.RemoveUnderExcept(rel, keep)
	for _, f := range files {
		if err := updateFile(tree, x, f); err != nil {
			return len(files), err
		}
	}
	return len(files), nil
}

func updateFile(tree Tree, x *Index, rel string) error {
	data, skipped, err := tree.Read(rel)
	if err != nil {
		// Gone, or unreadable: a grep of the tree leaves it out too. A later chmod or write is
		// an event that brings it back.
		x.Remove(rel)
		return nil
	}
	return x.Update(rel, data, skipped)
}

// relPath returns p (absolute, below root) as a slash path relative to root.
func relPath(root, p string) (string, bool) {
	rel, ok := strings.CutPrefix(p, root+string(filepath.Separator))
	if !ok || rel == "" {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// freeAfter is the index size past which a build returns its garbage to the system at once.
const freeAfter = 64 << 20

// errUncovered: some directory walked by a build was not watched all along.
var errUncovered = errors.New("trigram index: directories were not watched during the build")

// build makes r's index (from scratch, or by walking again for the file list of old) and installs
// it. A build that walked directories not yet watched runs once more from scratch: they are watched
// by then.
func (s *Indexes) build(ctx context.Context, r *rootIndex, tree Tree, old *Index) {
	start := time.Now()
	x, err := s.buildOnce(ctx, r, tree, old)
	if errors.Is(err, errUncovered) {
		// Files below those directories may have changed unseen after they were read: read all
		// again, now that every directory is watched.
		x, err = s.buildOnce(ctx, r, tree, nil)
	}
	free := false
	defer func() {
		if free {
			debug.FreeOSMemory()
		}
	}()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.building = false
	defer close(r.done)
	if s.builds != nil {
		defer func() {
			select {
			case s.builds <- r.root:
			default:
			}
		}()
	}
	if r.dropped {
		return
	}
	switch {
	case errors.Is(err, ErrTooLarge):
		r.failed = fmt.Errorf("not indexed: the memory cap (%d MiB per root) was reached", s.opts.MaxBytes>>20)
		s.log.Info("trigram index not built: memory cap reached", "root", r.root, "cap", s.opts.MaxBytes)
		return
	case err != nil:
		s.log.Debug("trigram index not built", "root", r.root, "err", err)
		return
	}
	b := x.Stats().Bytes
	if s.used.Add(b) > s.opts.Total {
		s.used.Add(-b)
		r.failed = s.totalCapError()
		s.log.Info("trigram index not kept: total memory cap reached", "root", r.root, "cap", s.opts.Total)
		return
	}
	r.x, r.counted, r.built = x, b, time.Since(start)
	r.idle.Reset(s.opts.Idle) // idle from now: a long build does not eat into the index's time
	// A build leaves up to twice its index in garbage (lists grown by doubling, then copied into one
	// array): give it back now (after r.mu is released) rather than hold it until the heap grows again.
	free = b >= freeAfter
	s.log.Debug("trigram index built", "root", r.root, "took", r.built, "files", x.Stats().Files, "bytes", b)
}

// buildOnce walks the tree and indexes it. Every change after its first Sync is left in the feed for
// the first grep after it to apply. With old, files it holds keep their content (the feed kept it
// current) and only the file list is walked again.
func (s *Indexes) buildOnce(ctx context.Context, r *rootIndex, tree Tree, old *Index) (*Index, error) {
	paths, lost, err := r.feed.Sync(ctx)
	if err != nil {
		return nil, err
	}
	if old != nil && (lost || applyTo(ctx, tree, old, r.root, paths) == applyRebuild) {
		old = nil
	}
	var dirs []string
	var x *Index
	if old != nil {
		tree.Invalidate()
		dirs, err = relist(ctx, tree, old, r.root)
		x = old
	} else {
		x, dirs, err = s.scan(ctx, tree, r.root)
	}
	if err != nil {
		return nil, err
	}
	if !r.feed.Cover(dirs) {
		return x, errUncovered
	}
	return x, nil
}

// relist walks the tree again: files x lacks are read, files no longer listed forgotten.
func relist(ctx context.Context, tree Tree, x *Index, root string) (dirs []string, err error) {
	listed := map[string]bool{}
	err = tree.Walk(ctx, ".", func(rel string, d fs.DirEntry) error {
		switch {
		case d.IsDir():
			dirs = append(dirs, absPath(root, rel))
		case d.Type().IsRegular():
			listed[rel] = true
			if !x.Has(rel) {
				return updateFile(tree, x, rel)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	x.RemoveUnderExcept(".", listed)
	return dirs, nil
}

func absPath(root, rel string) string {
	if rel == "." {
		return root
	}
	return filepath.Join(root, filepath.FromSlash(rel))
}

// scanned is one file read by a build worker.
type scanned struct {
	rel     string
	grams   []Trigram
	size    int64
	skipped bool
	gone    bool
}

// scan builds an index of the tree from scratch: this goroutine walks, buildWorkers read and
// extract trigrams, and one adds them to the Builder (posting lists grow by appending, in id order).
func (s *Indexes) scan(ctx context.Context, tree Tree, root string) (*Index, []string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs, out := make(chan string, 256), make(chan scanned, 256)
	var workers sync.WaitGroup
	for range buildWorkers {
		workers.Go(func() {
			for rel := range jobs {
				out <- readScanned(s.log, tree, rel)
			}
		})
	}
	b := NewBuilder(s.opts.MaxBytes)
	addErr := make(chan error, 1)
	go func() {
		var err error
		for sc := range out {
			if err != nil || sc.gone {
				continue // drain, so that the workers end
			}
			if err = addScanned(b, sc); err != nil {
				cancel()
			}
		}
		addErr <- err
	}()
	var dirs []string
	walkErr := func() (err error) {
		defer close(jobs)
		defer panics.Catch(&err)
		return tree.Walk(ctx, ".", func(rel string, d fs.DirEntry) error {
			switch {
			case d.IsDir():
				dirs = append(dirs, absPath(root, rel))
			case d.Type().IsRegular():
				select {
				case jobs <- rel:
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			return nil
		})
	}()
	workers.Wait()
	close(out)
	if err := <-addErr; err != nil {
		return nil, nil, err
	}
	if walkErr != nil {
		return nil, nil, walkErr
	}
	return b.Seal(), dirs, nil
}

func addScanned(b *Builder, sc scanned) (err error) {
	defer panics.Catch(&err)
	return b.Add(sc.rel, sc.grams, sc.size, sc.skipped)
}

// readScanned reads rel; a panic while reading it leaves the file out, as a read error does.
func readScanned(log *slog.Logger, tree Tree, rel string) (sc scanned) {
	defer panics.Log(log, "reading a file for a trigram index")
	sc = scanned{rel: rel, gone: true}
	data, skipped, err := tree.Read(rel)
	if err != nil {
		return sc
	}
	sc = scanned{rel: rel, size: int64(len(data)), skipped: skipped}
	if !skipped {
		sc.grams = Trigrams(data, nil)
	}
	return sc
}
