package roots_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestContainsReal(t *testing.T) {
	tmp := setTmp(t)
	symlink(t, filepath.Join(tmp, "ceil", "proj"), filepath.Join(tmp, "outside", "link-back"))
	symlink(t, "../../outside/o.txt", filepath.Join(tmp, "ceil", "proj", "o-link"))
	dirs := newScope(t, filepath.Join(tmp, "ceil", "proj"), filepath.Join(tmp, "ceil", "top.txt"))
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"$TMP/ceil/proj", true},
		{"$TMP/ceil/proj/a.txt", true},
		{"$TMP/ceil/proj/sub", true},
		{"$TMP/ceil/proj/sub/../a.txt", true},
		{"$TMP/ceil/link-in/a.txt", true},
		{"$TMP/outside/link-back/a.txt", true},
		{"$TMP/ceil/top.txt", true},
		{"$TMP/ceil", false},
		{"$TMP/ceil/other/c.txt", false},
		{"$TMP/outside/o.txt", false},
		{"$TMP/ceil/proj/o-link", false},
		{"$TMP/ceil/link-out/o.txt", false},
		{"$TMP/ceil/proj/../other/c.txt", false},
		{"$TMP/ceil/proj/nope", false},
		{"$TMP/outside/nope", false},
		{"$TMP/ceil/proj-evil", false},
		{"/", false},
	} {
		t.Run(tt.path, func(t *testing.T) {
			abs := strings.Replace(tt.path, "$TMP", tmp, 1)
			if got := dirs.ContainsReal(abs); got != tt.want {
				t.Errorf("ContainsReal(%s) = %v, want %v", abs, got, tt.want)
			}
		})
	}
}

func TestLocate(t *testing.T) {
	tmp := setTmp(t)
	proj := filepath.Join(tmp, "ceil", "proj")
	sc := newScope(t, filepath.Join(tmp, "ceil"), proj)
	type located struct {
		Root, Rel string
		OK        bool
	}
	for _, tt := range []struct {
		path string
		want located
	}{
		{"$TMP/ceil", located{"$TMP/ceil", ".", true}},
		{"$TMP/ceil/top.txt", located{"$TMP/ceil", "top.txt", true}},
		{"$TMP/ceil/proj", located{"$TMP/ceil/proj", ".", true}},
		{"$TMP/ceil/proj/sub/b.txt", located{"$TMP/ceil/proj", "sub/b.txt", true}},
		{"$TMP/ceil/proj/../other", located{"$TMP/ceil", "other", true}},
		{"$TMP/ceil/link-out/o.txt", located{"$TMP/ceil", "link-out/o.txt", true}},
		{"$TMP/ceil-evil/x", located{}},
		{"$TMP/outside/o.txt", located{}},
		{"$TMP", located{}},
		{"$TMP/ceil/../outside", located{}},
	} {
		t.Run(tt.path, func(t *testing.T) {
			loc, ok := sc.Locate(strings.Replace(tt.path, "$TMP", tmp, 1))
			got := located{Rel: loc.Rel, OK: ok}
			if ok {
				got.Root = "$TMP" + strings.TrimPrefix(loc.Root.Path, tmp)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Locate mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLocJoin(t *testing.T) {
	tmp := setTmp(t)
	sc := newScope(t, filepath.Join(tmp, "ceil", "proj"))
	root, err := sc.Resolve(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		rel, wantRel string
		readable     bool
	}{
		{"a.txt", "a.txt", true},
		{"sub/b.txt", "sub/b.txt", true},
		{"sub/../a.txt", "a.txt", true},
		{"../top.txt", "../top.txt", false},
		{"../../outside/o.txt", "../../outside/o.txt", false},
	} {
		t.Run(tt.rel, func(t *testing.T) {
			loc := root.Join(tt.rel)
			if loc.Rel != tt.wantRel {
				t.Errorf("Join(%q).Rel = %q, want %q", tt.rel, loc.Rel, tt.wantRel)
			}
			got, err := readLoc(t, loc)
			if tt.readable != (err == nil) {
				t.Errorf("Join(%q) read %q, %v; readable = %v", tt.rel, got, err, tt.readable)
			}
		})
	}
}
