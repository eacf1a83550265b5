package gittools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/scan"
	"github.com/grove-mcp/grove/gittools/internal/status"
)

// submoduleFixture is a superproject with a checked-out submodule per state git distinguishes.
func submoduleFixture(t *testing.T) *fixture {
	f := layoutBase(t)
	sub := newFixture(t)
	sub.write("s.txt", "s\n")
	sub.commit("sub first")
	for _, m := range []string{"modified", "untracked", "committed", "all", "clean"} {
		f.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.dir, m)
	}
	f.commit("add submodules")
	f.write("modified/s.txt", "dirty\n", "untracked/u.txt", "u\n", "all/s.txt", "dirty\n", "all/u.txt", "u\n")
	for _, m := range []string{"committed", "all"} {
		f.gitIn(filepath.Join(f.dir, m), "commit", "-q", "--allow-empty", "-m", "new in sub")
	}
	return f
}

// TestSubmoduleStatesMatchGit: git_status says why a submodule is modified (git status --short's m and ?,
// porcelain v2's C, M and U), and scan.Submodule gives the patch writer git diff's Subproject commit lines.
func TestSubmoduleStatesMatchGit(t *testing.T) {
	f := submoduleFixture(t)
	r, sc := f.repos()
	_, out, err := r.status(testCtx(t), nil, sc, status.StatusArgs{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range out.Entries {
		got[e.Path] = strings.Join(e.Submodule, ", ")
	}
	want := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(f.git("status", "--porcelain=v2")), "\n") {
		fields := strings.Fields(l) // 1 XY Sxxx ... path
		if len(fields) < 9 || !strings.HasPrefix(fields[2], "S") {
			continue
		}
		var why []string
		for i, w := range []string{"new commits", "modified content", "untracked content"} {
			if fields[2][1+i] != '.' {
				why = append(why, w)
			}
		}
		want[fields[8]] = strings.Join(why, ", ")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("submodule states (-git +grove):\n%s", diff)
	}

	rp, unlock, err := r.open(testCtx(t), sc, "")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	idx, err := rp.Index()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"modified", "untracked", "committed", "all", "clean"} {
		i, ok := idx.Find(m)
		if !ok {
			t.Fatalf("%s is not in the index", m)
		}
		e := idx.Entries[i]
		st, ok, err := scan.Submodule(rp, testCtx(t), m, e.Hash, 0)
		if err != nil || !ok {
			t.Fatalf("Submodule(%s) = %v, %v", m, ok, err)
		}
		line := "+Subproject commit " + st.Head.String()
		if st.Dirty() {
			line += "-dirty"
		}
		wantLine := ""
		for _, l := range strings.Split(f.git("diff", "--", m), "\n") {
			if strings.HasPrefix(l, "+Subproject commit ") {
				wantLine = l
			}
		}
		if wantLine == "" { // git diff shows nothing for a clean or untracked-only submodule
			wantLine = "+Subproject commit " + e.Hash.String()
		}
		if line != wantLine {
			t.Errorf("%s: %q, git diff has %q", m, line, wantLine)
		}
	}
}

// TestSubmoduleOutsideTheRootsRefused: a submodule whose git dir lies outside every root is not read; the
// status says which and how to allow it.
func TestSubmoduleOutsideTheRootsRefused(t *testing.T) {
	f := submoduleFixture(t)
	out := filepath.Join(filepath.Dir(f.dir), "modules-elsewhere")
	if err := os.Rename(filepath.Join(f.dir, ".git", "modules", "modified"), out); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(f.dir, "modified", ".git"), []byte("gitdir: "+out+"\n"), 0o644)
	r, sc := f.repos()
	_, _, err := r.status(testCtx(t), nil, sc, status.StatusArgs{})
	if err == nil || !strings.Contains(err.Error(), "outside every root") || !strings.Contains(err.Error(), "--root") {
		t.Errorf("status = %v, want the submodule's git dir refused as outside every root", err)
	}
}
