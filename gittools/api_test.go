package gittools

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/status"

	"github.com/google/go-cmp/cmp"
)

func TestPromptMethods(t *testing.T) {
	f := historyFixture(t)
	f.write("README", "edited\n")
	f.write("src/a.go", "staged\n")
	f.git("add", "src/a.go")
	f.git("tag", "v1", "HEAD~2")
	r, sc := f.repos()
	ctx := testCtx(t)

	subjects, err := r.Subjects(ctx, sc, "", 3)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSpace(f.git("log", "-3", "--format=%s")), "\n")
	if diff := cmp.Diff(want, subjects); diff != "" {
		t.Errorf("Subjects (-git +grove):\n%s", diff)
	}

	patch, err := r.Diff(ctx, sc, "", false, "")
	if err != nil || patch != f.git("diff", "--no-renames") {
		t.Errorf("Diff unstaged = %q, %v", patch, err)
	}
	patch, err = r.Diff(ctx, sc, f.dir, true, "")
	if err != nil || patch != f.git("diff", "--no-renames", "--cached") {
		t.Errorf("Diff staged = %q, %v", patch, err)
	}

	for _, rev := range []string{"HEAD~1", "HEAD~4"} {
		msg, patch, err := r.Show(ctx, sc, "", rev)
		if err != nil {
			t.Fatal(err)
		}
		if patch != "" {
			msg += "\n" + patch
		}
		if got, want := msg, f.git("show", "--no-renames", rev); got != want {
			t.Errorf("Show:\n%s\nwant:\n%s", got, want)
		}
	}

	log, err := r.FileLog(ctx, sc, filepath.Join(f.dir, "src", "a.go"), 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := f.git("log", "-2", "-p", "--no-renames", "--first-parent", "--format=medium", "--", "src/a.go"); !strings.HasPrefix(strings.ReplaceAll(log, "\n\n\n", "\n\n"), want[:200]) {
		t.Errorf("FileLog:\n%s\nwant prefix:\n%s", log, want[:200])
	}
	if _, err := r.FileLog(ctx, sc, filepath.Join(f.dir, "src", "b.go"), 5); err != nil {
		t.Errorf("FileLog of a deleted file: %v", err)
	}

	revs, err := r.Revisions(ctx, sc, "", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"main", "feature", "side", "v1", strings.TrimSpace(f.git("rev-parse", "--short=7", "HEAD"))} {
		if !contains(revs, w) {
			t.Errorf("Revisions lacks %q: %v", w, revs)
		}
	}
	revs, err = r.Revisions(ctx, sc, "", "fe")
	if err != nil || !cmp.Equal(revs, []string{"feature"}) {
		t.Errorf("Revisions(fe) = %v, %v", revs, err)
	}
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func TestShortHashes(t *testing.T) {
	f := historyFixture(t)
	f.git("gc", "-q")
	f.write("loose.txt", "l\n")
	f.commit("loose commit")
	r, sc := f.repos()
	ctx := testCtx(t)
	rp, unlock, err := r.open(ctx, sc, "")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	for _, full := range gitLogHashes(f) {
		for _, n := range []int{7, 12, 40} {
			h, err := rp.Resolve(full[:n])
			if err != nil || h.String() != full {
				t.Errorf("resolve(%s) = %s, %v", full[:n], h, err)
			}
		}
	}
	// every object shares a 1-hex prefix with others: too short or ambiguous prefixes fail
	if _, err := rp.Resolve(gitLogHashes(f)[0][:3]); err == nil {
		t.Error("a 3-hex prefix resolved")
	}
}

func TestLinkedWorktree(t *testing.T) {
	f := historyFixture(t)
	wt := filepath.Join(f.dir, "wt")
	f.git("worktree", "add", "-q", wt, "feature")
	f.write("wt/new.txt", "n\n")
	r, sc := f.repos()
	_, out, err := r.status(testCtx(t), nil, sc, status.StatusArgs{RepoPath: wt})
	if err != nil {
		t.Fatal(err)
	}
	if got := statusOf2(out); out.Branch != "feature" || !cmp.Equal(got, []string{"?? new.txt"}) {
		t.Errorf("linked worktree status: branch %q entries %v", out.Branch, got)
	}
}
