package trigram

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grove-mcp/grove/watch"
)

// timeout bounds every wait on a build or an event.
const timeout = 30 * time.Second

// osTree is a Tree over a directory: every entry but .git, files over maxRead or holding a NUL
// skipped, as grep skips them.
type osTree struct {
	root    string
	maxRead int64

	mu    sync.Mutex // guards reads
	reads map[string]int
}

func newTree(root string) *osTree {
	return &osTree{root: root, maxRead: 1 << 20, reads: map[string]int{}}
}

func (t *osTree) Walk(ctx context.Context, dir string, fn func(rel string, d fs.DirEntry) error) error {
	start := filepath.Join(t.root, filepath.FromSlash(dir))
	return filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == start {
				return err
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, _ := filepath.Rel(t.root, p)
		rel = filepath.ToSlash(rel)
		if d.Name() == ".git" {
			return fs.SkipDir
		}
		if p == start {
			return nil
		}
		return fn(rel, d)
	})
}

func (t *osTree) Read(rel string) ([]byte, bool, error) {
	t.mu.Lock()
	t.reads[rel]++
	t.mu.Unlock()
	p := filepath.Join(t.root, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, errors.New("not a regular file")
	}
	if fi.Size() > t.maxRead {
		return nil, true, nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false, err
	}
	if int64(len(data)) > t.maxRead || bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return nil, true, nil
	}
	return data, false, nil
}

func (t *osTree) readCount(rel string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.reads[rel]
}

func (t *osTree) Lstat(rel string) (fs.FileMode, error) {
	fi, err := os.Lstat(filepath.Join(t.root, filepath.FromSlash(rel)))
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}

func (t *osTree) Ignored(rel string, isDir bool) bool {
	_, inGit := gitPath(rel)
	return inGit
}

func (t *osTree) Invalidate() {}

// watchFeed adapts a watch.Feed, as the server does.
type watchFeed struct{ f *watch.Feed }

func (w watchFeed) Sync(ctx context.Context) ([]string, bool, error) {
	ch, err := w.f.Sync(ctx)
	return ch.Paths, ch.Lost, err
}
func (w watchFeed) Cover(dirs []string) bool { return w.f.Cover(dirs) }
func (w watchFeed) Close()                   { w.f.Close() }

// tempDir is t.TempDir with symlinks resolved, as roots are real paths.
func tempDir(t testing.TB) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// watched returns Indexes fed by a real watcher of root.
func watched(t testing.TB, root string, opts Options) *Indexes {
	t.Helper()
	w, err := watch.New(watch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	if err := w.SetRoots([]string{root}); err != nil {
		t.Fatal(err)
	}
	opts.Watch = func(dir string) Feed { return watchFeed{w.Subscribe(dir)} }
	s := NewIndexes(opts)
	s.builds = make(chan string, 64)
	t.Cleanup(s.Close)
	return s
}

// warm searches root until its index answers (the first search starts the build).
func warm(t testing.TB, s *Indexes, root string, tree Tree) {
	t.Helper()
	warmWithin(t, s, root, tree, timeout)
}

func warmWithin(t testing.TB, s *Indexes, root string, tree Tree, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		c, err := s.Search(context.Background(), root, tree, Plan("x"))
		if err != nil {
			t.Fatal(err)
		}
		if c != nil {
			return
		}
		select {
		case <-s.builds:
		case <-time.After(time.Until(deadline)):
			t.Fatalf("no index for %s after %v: %+v", root, timeout, s.Stats())
		}
	}
}

// candidates returns the sorted candidate paths of pattern; ok as Search's.
func candidates(t testing.TB, s *Indexes, root string, tree Tree, pattern string) ([]string, bool) {
	t.Helper()
	c, err := s.Search(context.Background(), root, tree, Plan(pattern))
	if err != nil {
		t.Fatal(err)
	}
	if c == nil {
		return nil, false
	}
	return c.List(), true
}

func writeFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func hasPrefixAny(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
