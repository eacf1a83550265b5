package gittools

import (
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/restorecmd"
)

func TestGitRestoreWorktreeSavesWhatItDiscards(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n", "d/b.txt": "b\n", "d/c.txt": "c\n"})
	f.write(map[string]string{"a.txt": "a edited\n", "d/b.txt": "b edited\n"})
	var out restorecmd.Out
	f.ok("git_restore", map[string]any{"repo_path": f.dir, "paths": []string{"a.txt", "d"}, "dry_run": true}, &out)
	if len(out.Restored) != 2 || len(out.Discarded) != 2 || f.read("a.txt") != "a edited\n" {
		t.Fatalf("dry run: %+v, a.txt %q", out, f.read("a.txt"))
	}
	f.ok("git_restore", map[string]any{"repo_path": f.dir, "paths": []string{"a.txt", "d"}}, &out)
	if f.read("a.txt") != "a\n" || f.read("d/b.txt") != "b\n" || f.git("status", "--porcelain") != "" {
		t.Fatalf("after restore: status %q", f.git("status", "--porcelain"))
	}
	if got := f.git("cat-file", "-p", out.Discarded[0].Blob); got != "a edited" {
		t.Errorf("saved blob of %s holds %q", out.Discarded[0].Path, got)
	}
	f.fails("git_restore", map[string]any{"repo_path": f.dir, "paths": []string{"nothing"}}, "did not match")
}

func TestGitRestoreFromSourceAndStaged(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	f.commitFiles("two", map[string]string{"a.txt": "a2\n", "n.txt": "n\n"})
	var out restorecmd.Out
	f.ok("git_restore", map[string]any{"repo_path": f.dir, "paths": []string{"."}, "source": "HEAD~1"}, &out)
	if f.read("a.txt") != "a\n" || f.git("status", "--porcelain") != " M a.txt\n D n.txt" {
		t.Fatalf("restore from HEAD~1: status %q (%+v)", f.git("status", "--porcelain"), out)
	}
	f.git("checkout", "--", ".")
	f.write(map[string]string{"a.txt": "staged\n"})
	f.git("add", "a.txt")
	f.ok("git_restore", map[string]any{"repo_path": f.dir, "paths": []string{"a.txt"}, "staged": true}, &out)
	if f.git("status", "--porcelain") != " M a.txt" || f.read("a.txt") != "staged\n" {
		t.Errorf("staged restore: status %q", f.git("status", "--porcelain"))
	}
}
