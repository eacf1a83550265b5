//go:build linux

package dirent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadNamesSerialParallel(t *testing.T) {
	dir := entryDir(t)
	root, err := os.OpenRoot(dir)
	must(t, err)
	defer root.Close()
	ignored := func(name string, isDir bool) bool {
		return name == ".git" || name == "build" && isDir || path.Ext(name) == ".log"
	}
	want, wantIgnored := listOld(t, root, ignored)
	if len(want) < parallelStatMin || wantIgnored != 3 {
		t.Fatalf("fixture: %d entries, %d ignored", len(want), wantIgnored)
	}
	for _, parts := range []int{1, 2} {
		t.Run(strconv.Itoa(parts), func(t *testing.T) {
			f, err := root.OpenFile(".", os.O_RDONLY|OpenDirFlags, 0)
			must(t, err)
			defer f.Close()
			names, err := f.Readdirnames(-1)
			must(t, err)
			// names listed but gone before their lstat, at both ends of both halves
			names = append([]string{"vanished-0", "~vanished"}, names...)
			names = append(names, "0-vanished", "vanished.d")
			got, gotIgnored, err := readNames(context.Background(), f, names, ignored, parts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("entries mismatch (-want +got):\n%s", diff)
			}
			if gotIgnored != wantIgnored {
				t.Errorf("ignored = %d, want %d", gotIgnored, wantIgnored)
			}
		})
	}
}

func TestReadNamesCanceled(t *testing.T) {
	dir := entryDir(t)
	f, err := os.Open(dir)
	must(t, err)
	defer f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Read(ctx, f, func(string, bool) bool { return false }); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want %v", err, context.Canceled)
	}
}

// BenchmarkReadNames compares one goroutine with two on directories of n
// files: two trade a little CPU for wall time.
func BenchmarkReadNames(b *testing.B) {
	for _, n := range []int{100, 256, 1000} {
		dir, err := filepath.EvalSymlinks(b.TempDir())
		must(b, err)
		for i := range n {
			must(b, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)), []byte("hello\n"), 0o644))
		}
		for _, parts := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/parts=%d", n, parts), func(b *testing.B) {
				f, err := os.Open(dir)
				must(b, err)
				defer f.Close()
				names, err := f.Readdirnames(-1)
				must(b, err)
				ignored := func(string, bool) bool { return false }
				defer reportCPU(b)()
				for b.Loop() {
					if _, _, err := readNames(context.Background(), f, slices.Clone(names), ignored, parts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// A panic while classifying either half of a listing (the ignore rules come
// from the tree) is an error, never a listing with a half missing.
func TestReadNamesPanic(t *testing.T) {
	dir := entryDir(t)
	for _, tt := range []struct {
		name  string
		parts int
		boom  func(names []string) string // the name whose classification panics
	}{
		{"serial", 1, func(names []string) string { return names[0] }},
		{"low half", 2, func(names []string) string { return names[0] }},
		{"high half", 2, func(names []string) string { return names[len(names)-1] }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := os.Open(dir)
			must(t, err)
			defer f.Close()
			names, err := f.Readdirnames(-1)
			must(t, err)
			slices.Sort(names)
			boom := tt.boom(names)
			ignored := func(name string, _ bool) bool {
				if name == boom {
					panic("crafted ignore rules")
				}
				return false
			}
			entries, _, err := readNames(context.Background(), f, names, ignored, tt.parts)
			if err == nil || !strings.Contains(err.Error(), "internal error") {
				t.Errorf("readNames: %d entries, err %v; want an internal error", len(entries), err)
			}
		})
	}
}
