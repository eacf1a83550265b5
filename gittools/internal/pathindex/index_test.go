package pathindex

import (
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
)

func hash(b byte) plumbing.Hash { return plumbing.Hash{b} }

func TestChanged(t *testing.T) {
	x := New(&Budget{})
	x.add(hash(1), 10, []plumbing.Hash{hash(2), hash(3)}, [][]string{{"a", "a/b"}, nil})
	x.add(hash(2), 5, nil, [][]string{{"a", "a/b", "c"}})
	idA, _ := x.PathID("a")
	idC, _ := x.PathID("c")
	idX, okX := x.PathID("x")
	type res struct{ Changed, Known bool }
	for _, tt := range []struct {
		name   string
		commit plumbing.Hash
		parent int
		id     uint32
		ok     bool
		want   res
	}{
		{"changed against first parent", hash(1), 0, idA, true, res{true, true}},
		{"unchanged against first parent", hash(1), 0, idC, true, res{false, true}},
		{"unknown list", hash(1), 1, idA, true, res{false, false}},
		{"parent out of range", hash(1), 2, idA, true, res{false, false}},
		{"path never changed", hash(1), 0, idX, okX, res{false, true}},
		{"root commit: path exists", hash(2), 0, idC, true, res{true, true}},
		{"not indexed", hash(9), 0, idA, true, res{false, false}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, k := x.Changed(tt.commit, tt.parent, tt.id, tt.ok)
			if diff := cmp.Diff(tt.want, res{c, k}); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
	n, ok := x.Lookup(hash(1))
	if !ok || n.Time != 10 || len(n.Parents) != 2 {
		t.Errorf("Lookup = %+v, %v", n, ok)
	}
}

func TestBudget(t *testing.T) {
	b := &Budget{Total: 1000, MaxBytes: 600}
	x, y := New(b), New(b)
	added := 0
	for i := range 100 {
		if !x.add(hash(byte(i)), 0, nil, [][]string{{"some/path"}}) {
			break
		}
		added++
	}
	if added == 0 || added == 100 || !x.Full() {
		t.Fatalf("added %d commits, full %v: the per-index bound did not stop the index", added, x.Full())
	}
	if x.Bytes() > 600 || b.Used() != x.Bytes() {
		t.Errorf("index holds %d bytes, budget counts %d (bounds 600 per index)", x.Bytes(), b.Used())
	}
	for i := range 100 {
		if !y.add(hash(byte(i)), 0, nil, [][]string{{"other/path"}}) {
			break
		}
	}
	if b.Used() > 1000 {
		t.Errorf("budget holds %d bytes, over its total 1000", b.Used())
	}
	x.Drop()
	y.Drop()
	if b.Used() != 0 || x.Len() != 0 {
		t.Errorf("after Drop: budget %d bytes, index %d commits; want 0, 0", b.Used(), x.Len())
	}
	if x.add(hash(200), 0, nil, nil) {
		t.Error("a dropped index grew again")
	}
}

func TestParseTreeOrder(t *testing.T) {
	entry := func(mode, name string) string { return mode + " " + name + "\x00" + string(make([]byte, 20)) }
	for _, tt := range []struct {
		name   string
		data   string
		sorted bool
		err    bool
	}{
		{"git order: a file before a directory of the same prefix", entry("100644", "a.c") + entry("40000", "a"), true, false},
		{"unsorted", entry("100644", "b") + entry("100644", "a"), false, false},
		{"duplicate", entry("100644", "a") + entry("100644", "a"), false, false},
		{"bad mode", entry("10x644", "a"), false, true},
		{"truncated", entry("100644", "a")[:10], false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := parseTree([]byte(tt.data))
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error %v", err, tt.err)
			}
			if err == nil && tr.sorted != tt.sorted {
				t.Errorf("sorted = %v, want %v", tr.sorted, tt.sorted)
			}
		})
	}
}
