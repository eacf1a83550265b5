package ignore

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConcurrent runs Ignored, Tracked, Walk and Invalidate from several
// goroutines (run it with -race) and checks every answer against a
// sequential baseline: on an unchanged tree, caching must not change them.
func TestConcurrent(t *testing.T) {
	m, dir := newTree(t, `
-- .gitignore --
*.o
/build/
-- a/.gitignore --
!keep.o
-- a/keep.o --
-- a/x.o --
-- a/b/c.txt --
-- build/out --
-- build/tracked --
-- src/main.c --
-- src/main.o --
`)
	initRepo(t, dir, 2, "build/tracked", "src/main.o")
	paths := []string{"a/keep.o", "a/x.o", "a/b/c.txt", "build", "build/out", "build/tracked", "src/main.c", "src/main.o", "z.o"}
	want := make([]bool, len(paths))
	for i, p := range paths {
		want[i] = m.Ignored(p, p == "build")
	}
	wantWalk := walkList(t, m)

	var wg sync.WaitGroup
	errs := make(chan error, 64)
	report := func(err error) {
		select {
		case errs <- err:
		default: // enough to go on
		}
	}
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				switch {
				case g == 0 && i%10 == 0:
					m.Invalidate()
				case g%2 == 1:
					if got := walkList(t, m); !slices.Equal(got, wantWalk) {
						report(fmt.Errorf("Walk: %s", cmp.Diff(wantWalk, got)))
					}
				}
				for j, p := range paths {
					if got := m.Ignored(p, p == "build"); got != want[j] {
						report(fmt.Errorf("Ignored(%q) = %v, want %v", p, got, want[j]))
					}
				}
				if !m.Tracked("build") {
					report(fmt.Errorf("Tracked(build) = false"))
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func walkList(t *testing.T, m *Matcher) []string {
	var got []string
	err := m.Walk(context.Background(), func(rel string, _ fs.DirEntry) error {
		got = append(got, rel)
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	return got
}
