package ignore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/internal/panics"
)

// walkSorted returns what WalkParallel (workers > 0) or Walk (workers 0)
// reports, directories with a trailing slash, sorted.
func walkSorted(t *testing.T, m *Matcher, ctx context.Context, workers int, fn func(rel string) error) ([]string, error) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	err := m.WalkParallel(ctx, workers, func(rel string, d fs.DirEntry) error {
		if d.IsDir() {
			rel += "/"
		}
		mu.Lock()
		got = append(got, rel)
		mu.Unlock()
		if fn != nil {
			return fn(rel)
		}
		return nil
	})
	slices.Sort(got)
	return got, err
}

func TestWalkParallelSameAsWalk(t *testing.T) {
	for seed := range 12 {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Setenv("HOME", t.TempDir())
			t.Setenv("XDG_CONFIG_HOME", "")
			dir := t.TempDir()
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			tracked := randomTree(t, rng, dir)
			initRepo(t, dir, 2, tracked...)
			writeTree(t, dir, "-- nested/.git/HEAD --\nref: refs/heads/main\n-- nested/.gitignore --\n*.o\n-- nested/x.o --\n-- nested/y.txt --\n")
			m, err := New(dir)
			if err != nil {
				t.Fatal(err)
			}
			want, err := walkSorted(t, m, context.Background(), 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 2, 4} {
				got, err := walkSorted(t, m, context.Background(), workers, nil)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("WalkParallel(%d) mismatch with Walk (-want +got):\n%s", workers, diff)
				}
			}
		})
	}
}

func TestWalkParallelStop(t *testing.T) {
	m, dir := newTree(t, walkTree)
	for i := range 30 {
		writeTree(t, dir, fmt.Sprintf("-- many/d%02d/f.txt --\n", i))
	}
	errStop := errors.New("stop")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		name    string
		ctx     context.Context
		fn      func(rel string) error
		wantErr error
	}{
		{"error", context.Background(), func(rel string) error {
			if rel == "many/d07/f.txt" {
				return errStop
			}
			return nil
		}, errStop},
		{"SkipAll", context.Background(), func(rel string) error {
			if rel == "many/d03/" {
				return fs.SkipAll
			}
			return nil
		}, nil},
		{"cancelled", cancelled, nil, context.Canceled},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := walkSorted(t, m, tt.ctx, 2, tt.fn); !errors.Is(err, tt.wantErr) || err == nil && tt.wantErr != nil {
				t.Errorf("WalkParallel error = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestWalkParallelSkipDir(t *testing.T) {
	m, dir := newTree(t, walkTree)
	if err := os.Symlink("a", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	got, err := walkSorted(t, m, context.Background(), 2, func(rel string) error {
		if rel == "a/" {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "a/", "b/", "b/c.txt", "link", "sub/", "sub/inner.txt", "top.txt"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("WalkParallel mismatch (-want +got):\n%s", diff)
	}
}

// TestWalkParallelPanic checks that a panic of fn, on a worker goroutine or
// on the caller's, ends WalkParallel with a *panics.Error once every
// goroutine has stopped, instead of ending the process.
func TestWalkParallelPanic(t *testing.T) {
	m, _ := newTree(t, "-- a/x --\n-- a/y/z --\n-- b/x --\n-- c/x --\n-- top --\n")
	for _, tt := range []struct {
		name, at string
	}{
		{"worker", "a/x"}, // a is the first directory handed to a worker
		{"caller", "top"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var running atomic.Int32
			err := m.WalkParallel(context.Background(), 4, func(rel string, d fs.DirEntry) error {
				running.Add(1)
				defer running.Add(-1)
				if rel == tt.at {
					panic("boom at " + rel)
				}
				return nil
			})
			var pe *panics.Error
			if !errors.As(err, &pe) || pe.Value != "boom at "+tt.at {
				t.Fatalf("WalkParallel = %v, want the panic at %s as a *panics.Error", err, tt.at)
			}
			if n := running.Load(); n != 0 {
				t.Errorf("%d calls of fn still running after WalkParallel returned", n)
			}
		})
	}
}
