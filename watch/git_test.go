package watch

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"
)

// TestGitRepo watches a directory that becomes a repository (git init), then stages, commits and
// branches with go-git: each step is reported in Git and nothing below .git in the other lists.
func TestGitRepo(t *testing.T) {
	dir := tempDir(t)
	writeTree(t, dir, "-- a.txt --\na\n")
	w := newWatcher(t, Options{}, dir)
	repo, err := git.PlainInit(dir, false)
	must(t, err)
	want := got{Git: []string{"."}}
	if diff := cmp.Diff(want, untilSentinel(t, w, dir, dir)); diff != "" {
		t.Errorf("git init (-want +got):\n%s", diff)
	}

	wt, err := repo.Worktree()
	must(t, err)
	for _, step := range []struct {
		name string
		do   func() error
	}{
		{"add", func() error { _, err := wt.Add("a.txt"); return err }},
		{"commit", func() error {
			sig := &object.Signature{Name: "t", Email: "t@example.com", When: time.Unix(1e9, 0)}
			_, err := wt.Commit("first", &git.CommitOptions{Author: sig})
			return err
		}},
		{"branch", func() error {
			head, err := repo.Head()
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, ".git/refs/heads/feature"), []byte(head.Hash().String()+"\n"), 0o644)
		}},
	} {
		must(t, step.do())
		if diff := cmp.Diff(want, untilSentinel(t, w, dir, dir)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", step.name, diff)
		}
	}
	if diff := cmp.Diff([]string{".", ".git", ".git/refs", ".git/refs/heads", ".git/refs/tags"}, watched(w, dir)); diff != "" {
		t.Errorf("watched directories mismatch (-want +got):\n%s", diff)
	}
}

// watched lists the watched directories relative to dir.
func watched(w *Watcher, dir string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var got []string
	for d := range w.dirs {
		got = append(got, d)
	}
	return union(nil, rel(dir, got))
}
