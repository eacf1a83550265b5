package blame

import (
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
)

func TestParseCommit(t *testing.T) {
	const tree = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"
	const p1 = "parent 1111111111111111111111111111111111111111\n"
	const p2 = "parent 2222222222222222222222222222222222222222\n"
	const who = "author A <a@example.com> 1700000000 +0100\ncommitter C <c> d> 1700000123 -0200\n"
	for _, tt := range []struct {
		name, data string
		parents    int
		time       int64
		wantErr    bool
	}{
		{"root", tree + who + "\nmessage\n", 0, 1700000123, false},
		{"merge", tree + p1 + p2 + who + "mergetag object 3333\n tag v1\n\nmessage\nparent 4444444444444444444444444444444444444444\n", 2, 1700000123, false},
		{"no message", tree + p1 + who, 1, 1700000123, false},
		{"no tree", p1 + who + "\n", 0, 0, true},
		{"short tree", "tree 4b825dc6\n" + who, 0, 0, true},
		{"upper-case hex", "tree 4B825DC642CB6EB9A060E54BF8D69288FBEE4904\n" + who, 0, 0, true},
		{"no committer time", tree + "committer C <c>\n", 0, 0, true},
		{"bad committer time", tree + "committer C <c> soon +0000\n", 0, 0, true},
		{"empty", "", 0, 0, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n, err := parseCommit([]byte(tt.data))
			if tt.wantErr {
				if err == nil {
					t.Fatalf("parseCommit = %+v, want an error", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n.tree != plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904") || len(n.parents) != tt.parents || n.time != tt.time {
				t.Errorf("parseCommit = tree %s, %d parents, time %d; want %d parents, time %d", n.tree, len(n.parents), n.time, tt.parents, tt.time)
			}
		})
	}
}

func TestFindEntry(t *testing.T) {
	var h1, h2 plumbing.Hash
	h1[0], h2[0] = 1, 2
	data := []byte("100644 a.txt\x00" + string(h1[:]) + "40000 a\x00" + string(h2[:]) + "120000 ab\x00" + string(h1[:]))
	for _, tt := range []struct {
		name  string
		want  plumbing.Hash
		found bool
	}{{"a.txt", h1, true}, {"a", h2, true}, {"ab", h1, true}, {"b", plumbing.ZeroHash, false}, {"a.tx", plumbing.ZeroHash, false}} {
		h, _, ok := findEntry(data, tt.name)
		if diff := cmp.Diff([]any{tt.want, tt.found}, []any{h, ok}); diff != "" {
			t.Errorf("findEntry(%q) mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
	if _, _, ok := findEntry(data[:len(data)-5], "ab"); ok {
		t.Error("findEntry found an entry in a truncated tree")
	}
}
