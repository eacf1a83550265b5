package scan

import (
	"maps"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// The walk finds every tracked file among its directory's entries, where a directory's files sort among
// those of its subdirectories and of siblings whose names extend its own ("a-b" sorts between "a" and "a/").
func TestFindByDirectory(t *testing.T) {
	names := []string{"a", "a-b", "a/x", "a/y/z", "a/y0", "a/z", "b", "b", "c/d/e"}
	idx := &gitfmt.Index{}
	for i, n := range names {
		stage := 0
		if i == 7 {
			stage = 1 // a second entry of "b"
		}
		idx.Entries = append(idx.Entries, gitfmt.IndexEntry{Name: n, Stage: stage})
	}
	u := &untrackedScan{idx: idx, files: filesByDir(idx)}
	want := map[string]span{"": {0, 8}, "a": {2, 6}, "a/y": {3, 4}, "c/d": {8, 9}}
	got := map[string]span{}
	for dir, df := range u.files {
		got[dir] = df.span
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(span{})); diff != "" {
		t.Errorf("filesByDir mismatch (-want +got):\n%s", diff)
	}
	for i, n := range names {
		if i == 7 {
			continue
		}
		if got, ok := u.find(n); !ok || got != i {
			t.Errorf("find(%q) = %d, %v; want %d, true", n, got, ok, i)
		}
	}
	for _, n := range []string{"a/", "a/y", "c", "c/d", "a/a", "a/zz", "zz", "c/d/f", "x/y"} {
		if got, ok := u.find(n); ok {
			t.Errorf("find(%q) = %d, true; it is not tracked", n, got)
		}
	}
}

// Looked up in walk order (each directory's names sorted, tracked or not, and the directories in any
// order), every name is found where idx.Find finds it; so it is out of order.
func TestFindCursor(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	const alphabet = "ab-./"
	randName := func() string {
		var b strings.Builder
		for range 1 + rnd.IntN(6) {
			b.WriteByte(alphabet[rnd.IntN(len(alphabet))])
		}
		return b.String()
	}
	for round := range 200 {
		set := map[string]bool{}
		for range rnd.IntN(30) {
			if n := randName(); gitfmt.ValidPath(n) {
				set[n] = true
			}
		}
		names := slices.Sorted(maps.Keys(set))
		idx := &gitfmt.Index{}
		for _, n := range names {
			idx.Entries = append(idx.Entries, gitfmt.IndexEntry{Name: n})
			if rnd.IntN(5) == 0 {
				idx.Entries = append(idx.Entries, gitfmt.IndexEntry{Name: n, Stage: 2})
			}
		}
		// What the walk meets: each directory's tracked files and some untracked names, sorted by name.
		byDir := map[string][]string{}
		for range 40 {
			if n := randName(); gitfmt.ValidPath(n) {
				set[n] = true
			}
		}
		for n := range set {
			dir, base := path.Split(n)
			byDir[strings.TrimSuffix(dir, "/")] = append(byDir[strings.TrimSuffix(dir, "/")], base)
		}
		u := &untrackedScan{idx: idx, files: filesByDir(idx)}
		for dir, bases := range byDir {
			slices.Sort(bases)
			if rnd.IntN(4) == 0 {
				rnd.Shuffle(len(bases), func(i, j int) { bases[i], bases[j] = bases[j], bases[i] })
			}
			for _, b := range bases {
				rel := path.Join(dir, b)
				i, ok := u.find(rel)
				wi, wok := idx.Find(rel)
				if ok != wok || ok && i != wi {
					t.Fatalf("round %d: find(%q) = %d, %v; idx.Find says %d, %v", round, rel, i, ok, wi, wok)
				}
			}
		}
	}
}
