package gittools

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/writecmd"

	"github.com/google/go-cmp/cmp"
)

func TestGitAddStagesLikeGit(t *testing.T) {
	f := newWriteFixture(t, map[string]string{
		"a.txt":       "a\n",
		"gone.txt":    "bye\n",
		".gitignore":  "*.log\n",
		"dir/old.txt": "old\n",
	})
	f.write(map[string]string{
		"a.txt":        "a changed\n",
		"gone.txt":     "",
		"new.txt":      "new\n",
		"dir/sub/n.c":  "int x;\n",
		"dir/skip.log": "ignored\n",
		"dir/old.txt":  "",
	})
	var out writecmd.AddOut
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"a.txt", "gone.txt", filepath.Join(f.dir, "new.txt"), "dir"}}, &out)

	want := "A\tdir/sub/n.c\nD\tdir/old.txt\nM\ta.txt\nD\tgone.txt\nA\tnew.txt"
	if diff := cmp.Diff(sortLines(want), sortLines(f.git("diff", "--cached", "--name-status"))); diff != "" {
		t.Errorf("git diff --cached mismatch (-want +got):\n%s", diff)
	}
	if got := f.git("diff", "--name-only"); got != "" {
		t.Errorf("staged files differ from the worktree (stat data or content wrong): %q", got)
	}
	if got := f.git("status", "--porcelain", "--ignored"); !strings.Contains(got, "!! dir/skip.log") {
		t.Errorf("ignored file was staged or not reported ignored:\n%s", got)
	}
	if diff := cmp.Diff([]string{"a.txt", "dir/sub/n.c", "new.txt"}, out.Staged); diff != "" {
		t.Errorf("Staged mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"dir/old.txt", "gone.txt"}, out.Removed); diff != "" {
		t.Errorf("Removed mismatch (-want +got):\n%s", diff)
	}
	f.git("fsck", "--strict")
}

func TestGitAddSymlinkAndExecutable(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"target.txt": "t\n"})
	if err := os.Symlink("target.txt", filepath.Join(f.dir, "link")); err != nil {
		t.Fatal(err)
	}
	f.write(map[string]string{"run.sh": "#!/bin/sh\n"})
	if err := os.Chmod(filepath.Join(f.dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"link", "run.sh"}}, nil)
	got := f.git("ls-files", "-s", "link", "run.sh")
	for _, want := range []string{"120000 ", "\tlink", "100755 "} {
		if !strings.Contains(got, want) {
			t.Errorf("git ls-files -s = %q, want it to contain %q", got, want)
		}
	}
	if got := f.git("status", "--porcelain"); got != "A  link\nA  run.sh" {
		t.Errorf("git status --porcelain = %q", got)
	}
}

func TestGitAddRefusals(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	outside := realTemp(t)
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.write(map[string]string{"a.txt": "changed\n", "-f": "option-like\n"})
	for _, tt := range []struct{ path, wantErr string }{
		{"-f", "must not start with '-'"},
		{"--force", "must not start with '-'"},
		{"../secret.txt", "'..' is not allowed"},
		{"a/../a.txt", "'..' is not allowed"},
		{filepath.Join(outside, "secret.txt"), "not inside the repository"},
		{f.dir + "/../" + filepath.Base(outside) + "/secret.txt", "'..' is not allowed"},
		{"file://" + filepath.Join(outside, "secret.txt"), "not inside the repository"},
		{".git/config", "inside .git"},
		{"missing.txt", "did not match any files"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			f.fails("git_add", map[string]any{"repo_path": f.dir, "files": []string{"a.txt", tt.path}}, tt.wantErr)
			if got := f.git("diff", "--cached", "--name-only"); got != "" {
				t.Errorf("a refused call changed the index: %q", got)
			}
		})
	}
	f.fails("git_add", map[string]any{"repo_path": f.dir, "files": []string{}}, "files is empty")
}

func TestGitAddNeverFollowsSymlinkedDir(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	outside := realTemp(t)
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(f.dir, "ext")); err != nil {
		t.Fatal(err)
	}
	f.fails("git_add", map[string]any{"repo_path": f.dir, "files": []string{"ext/secret.txt"}}, "beyond a symbolic link")
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"."}}, nil)
	if got := f.git("ls-files", "-s"); strings.Contains(got, "secret") || !strings.Contains(got, "120000 ") {
		t.Errorf("git ls-files -s = %q, want ext staged as a link and nothing from inside it", got)
	}
}

func TestGitAddIgnoredFileNamedExplicitly(t *testing.T) {
	f := newWriteFixture(t, map[string]string{".gitignore": "*.log\n"})
	f.write(map[string]string{"x.log": "log\n"})
	f.fails("git_add", map[string]any{"repo_path": f.dir, "files": []string{"x.log"}}, "ignored")
	if got := f.git("diff", "--cached", "--name-only"); got != "" {
		t.Errorf("ignored file staged: %q", got)
	}
}

func sortLines(s string) []string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return lines
}

func TestGitAddRefusesConversions(t *testing.T) {
	f := newWriteFixture(t, map[string]string{".gitattributes": "*.bin filter=lfs diff=lfs merge=lfs -text\n*.txt text=auto\n"})
	f.write(map[string]string{"big.bin": "real content\n", "crlf.txt": "a\r\nb\r\n", "lf.txt": "a\nb\n", "raw.dat": "x\r\n"})
	f.fails("git_add", map[string]any{"repo_path": f.dir, "files": []string{"lf.txt", "big.bin"}}, `uses the git filter "lfs"`)
	f.fails("git_add", map[string]any{"repo_path": f.dir, "files": []string{"crlf.txt"}}, "CRLF line endings")
	if got := f.git("diff", "--cached", "--name-only"); got != "" {
		t.Errorf("refused calls staged %q", got)
	}
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"lf.txt", "raw.dat"}}, nil)
	if got := f.git("diff", "--cached", "--name-only"); got != "lf.txt\nraw.dat" {
		t.Errorf("staged %q", got)
	}
	if got := f.git("diff", "--name-only", "--", "lf.txt", "raw.dat"); got != "" {
		t.Errorf("git sees the staged files differently: %q", got)
	}
}

func TestGitAddInsideIgnoredDir(t *testing.T) {
	f := newWriteFixture(t, map[string]string{".gitignore": "build/\n"})
	f.write(map[string]string{"build/out.txt": "o\n"})
	f.fails("git_add", map[string]any{"repo_path": f.dir, "files": []string{"build/out.txt"}}, "ignored")
	f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"."}}, nil)
	if got := f.git("diff", "--cached", "--name-only"); got != "" {
		t.Errorf("ignored directory staged: %q", got)
	}
}
