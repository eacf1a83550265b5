package gitwrite

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// MatchesTree is true exactly when git's own cache-tree says the index is the tree: after git writes it whole,
// and not after a staged change, an intent-to-add entry, a conflict, or a change through IndexFile's methods.
func TestMatchesTree(t *testing.T) {
	for _, tt := range []struct {
		name string
		prep func(r *gitRepo)
		tree string // the revision whose tree is asked about
		edit func(ix *IndexFile)
		want bool
	}{
		{name: "reset hard", want: true},
		{name: "another tree", tree: "HEAD~1"},
		{name: "staged change", prep: func(r *gitRepo) { r.write("d/b.txt", "changed\n"); r.git("add", "d/b.txt") }},
		{name: "intent to add", prep: func(r *gitRepo) { r.write("new.txt", "new\n"); r.git("add", "-N", "new.txt") }},
		{name: "staged then unstaged", want: true,
			prep: func(r *gitRepo) {
				r.write("d/b.txt", "changed\n")
				r.git("add", "d/b.txt")
				r.git("reset", "-q", "--hard")
			}},
		{name: "conflict", prep: func(r *gitRepo) {
			r.git("checkout", "-q", "-b", "side", "HEAD~1")
			r.write("a.txt", "side\n")
			r.git("commit", "-q", "-am", "side")
			r.git("checkout", "-q", "main")
			if out, err := r.gitErr(nil, "merge", "-q", "side"); err == nil {
				t.Fatalf("the merge did not conflict:\n%s", out)
			}
		}},
		{name: "changed through Set", edit: func(ix *IndexFile) {
			e := *ix.Entry("a.txt")
			ix.Set(&e)
		}},
		{name: "removed through RemoveName", edit: func(ix *IndexFile) { ix.RemoveName("a.txt") }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newGitRepo(t)
			r.write("a.txt", "one\n")
			r.write("d/b.txt", "two\n")
			r.git("add", ".")
			r.git("commit", "-q", "-m", "one")
			r.write("a.txt", "main\n")
			r.write("d/e/c.txt", "three\n")
			r.git("add", ".")
			r.git("commit", "-q", "-m", "two")
			r.git("reset", "-q", "--hard")
			if tt.prep != nil {
				tt.prep(r)
			}
			ix, err := DecodeIndex(r.index())
			if err != nil {
				t.Fatal(err)
			}
			if tt.edit != nil {
				tt.edit(ix)
			}
			rev := tt.tree
			if rev == "" {
				rev = "HEAD"
			}
			tree := plumbing.NewHash(strings.TrimSpace(r.git("rev-parse", rev+"^{tree}")))
			if got := ix.MatchesTree(tree); got != tt.want {
				t.Errorf("MatchesTree(%s^{tree}) = %v, want %v", rev, got, tt.want)
			}
		})
	}
}
