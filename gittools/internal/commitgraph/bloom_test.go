package commitgraph

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/gittest"
)

func TestMurmur3(t *testing.T) {
	for _, tt := range []struct {
		in   string
		seed uint32
		want uint32
	}{
		{"", 0, 0},
		{"", 1, 0x514e28b7},
		{"", 0xffffffff, 0x81f16f39},
		{"test", 0, 0xba6bd213},
		{"The quick brown fox jumps over the lazy dog", 0, 0x2e4ff723},
	} {
		if got := murmur3([]byte(tt.in), tt.seed, false); got != tt.want {
			t.Errorf("murmur3(%q, %#x) = %#x, want %#x", tt.in, tt.seed, got, tt.want)
		}
		if got := murmur3([]byte(tt.in), tt.seed, true); got != tt.want { // ASCII: both versions agree
			t.Errorf("signed murmur3(%q, %#x) = %#x, want %#x", tt.in, tt.seed, got, tt.want)
		}
	}
	if murmur3([]byte("é"), seed0, true) == murmur3([]byte("é"), seed0, false) {
		t.Error("version 1 and 2 hash a byte >= 0x80 alike")
	}
}

// bloomRepo is a repository with commits touching ASCII, spaced and non-ASCII paths, whose commit-graph git
// wrote with changed-path filters (version 1 for git before 2.45).
func bloomRepo(t testing.TB, split bool) *gittest.Fixture {
	f := gittest.New(t)
	names := []string{"a.txt", "dir/b.txt", "dir/sub/c.go", "with space/d e.txt", "ünï/çødé.txt", "日本/語.md", "x/y/z/w.txt"}
	for i := range 10 {
		var files []string
		for j, n := range names {
			if (i+j)%3 == 0 || i == 0 {
				files = append(files, n, fmt.Sprintf("%d %d\n", i, j))
			}
		}
		f.Write(files...)
		f.Commit(fmt.Sprintf("c%d", i))
		if split && i%4 == 3 {
			f.Git("commit-graph", "write", "--reachable", "--changed-paths", "--split=no-merge")
		}
	}
	if split {
		f.Git("commit-graph", "write", "--reachable", "--changed-paths", "--split=no-merge")
	} else {
		f.Git("commit-graph", "write", "--reachable", "--changed-paths")
	}
	return f
}

func TestBloomNoFalseNegatives(t *testing.T) {
	for _, split := range []bool{false, true} {
		t.Run(fmt.Sprintf("split=%v", split), func(t *testing.T) {
			f := bloomRepo(t, split)
			g, err := openAt(t, filepath.Join(f.Dir, ".git"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if split && len(g.layers) < 2 {
				t.Fatalf("want a chain, got %d layers", len(g.layers))
			}
			if !g.HasFilters() {
				t.Fatal("no filters read")
			}
			all := strings.Fields(f.Git("log", "--format=%H"))
			if g.Len() != uint32(len(all)) {
				t.Errorf("graph holds %d commits, want %d", g.Len(), len(all))
			}
			parents := map[string]string{}
			for _, line := range strings.Split(strings.TrimSpace(f.Git("log", "--format=%H %P %ct")), "\n") {
				fs := strings.Fields(line)
				parents[fs[0]] = strings.Join(fs[1:], " ")
			}
			for c, want := range parents {
				pos, _ := g.Find(mustHash(t, c))
				gc, ok := g.Commit(pos)
				if !ok {
					t.Fatalf("commit %s: no data", c)
				}
				var got []string
				for _, p := range gc.Parents {
					h, _ := g.Hash(p)
					got = append(got, hex.EncodeToString(h[:]))
				}
				got = append(got, fmt.Sprint(gc.Time))
				if strings.Join(got, " ") != want {
					t.Errorf("commit %s: parents and time %q, want %q", c[:7], strings.Join(got, " "), want)
				}
			}
			proved := 0
			for _, c := range all[:len(all)-1] { // the root commit's filter is against the empty tree
				pos, ok := g.Find(mustHash(t, c))
				if !ok {
					t.Fatalf("commit %s not found", c)
				}
				changed := map[string]bool{}
				for _, p := range strings.Split(strings.TrimSpace(f.Git("-c", "core.quotepath=off", "diff-tree", "-r", "--name-only", "--no-renames", c+"^", c)), "\n") {
					for k := range NewKeys(p).paths {
						changed[NewKeys(p).paths[k]] = true
					}
				}
				for _, p := range []string{"a.txt", "dir", "dir/b.txt", "dir/sub", "dir/sub/c.go", "with space", "with space/d e.txt",
					"ünï", "ünï/çødé.txt", "日本", "日本/語.md", "x/y/z/w.txt", "missing", "dir/missing"} {
					maybe := g.MaybeChanged(pos, NewKeys(p))
					if changed[p] && !maybe {
						t.Errorf("commit %s changed %q, but its filter says it did not", c[:7], p)
					}
					if !changed[p] && !maybe {
						proved++
					}
				}
			}
			if proved == 0 {
				t.Error("the filters never proved a path unchanged")
			}
		})
	}
}

func mustHash(t *testing.T, s string) (h [HashLen]byte) {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != HashLen {
		t.Fatalf("bad hash %q", s)
	}
	copy(h[:], b)
	return h
}

func TestOpenWithoutGraph(t *testing.T) {
	f := gittest.New(t)
	f.Write("a", "1")
	f.Commit("one")
	if _, err := openAt(t, filepath.Join(f.Dir, ".git"), Options{}); err == nil {
		t.Fatal("Open succeeded on a repository without a commit-graph")
	}
}

func TestChangedPathsVersion(t *testing.T) {
	f := bloomRepo(t, false)
	for _, tt := range []struct {
		opts Options
		want bool
	}{
		{Options{}, true},
		{Options{ChangedPathsVersion: -1}, true},
		{Options{ChangedPathsVersion: 1}, true},
		{Options{ChangedPathsVersion: 2}, false}, // git 2.39 writes version 1
		{Options{NoFilters: true}, false},
	} {
		g, err := openAt(t, filepath.Join(f.Dir, ".git"), tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if g.HasFilters() != tt.want {
			t.Errorf("%+v: HasFilters = %v, want %v", tt.opts, g.HasFilters(), tt.want)
		}
	}
}

// openAt opens the commit-graph of the git dir at dir, through an os.Root of it.
func openAt(t *testing.T, dir string, opts Options) (*Graph, error) {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return Open(r, opts)
}
