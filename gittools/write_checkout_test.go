package gittools

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/writecmd"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
)

// newBranchFixture has master with base files and a branch "other" that changes them (built with go-git).
func newBranchFixture(t *testing.T) *writeFixture {
	t.Helper()
	f := newWriteFixture(t, map[string]string{
		"same.txt": "same\n", "mod.txt": "master\n", "gone.txt": "only on master\n", "sub/f.txt": "master f\n",
	})
	repo, err := git.PlainOpen(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	other := plumbing.NewBranchReferenceName("other")
	if err := w.Checkout(&git.CheckoutOptions{Branch: other, Create: true}); err != nil {
		t.Fatal(err)
	}
	changes := map[string]string{"mod.txt": "other\n", "gone.txt": "", "new/dir/n.txt": "new on other\n", "sub/f.txt": "other f\n"}
	f.write(changes)
	f.goGitCommit(repo, "other changes", changes)
	if err := w.Checkout(&git.CheckoutOptions{Branch: plumbing.Master, Force: true}); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(f.dir, "new"))
	if got := f.git("status", "--porcelain"); got != "" {
		t.Fatalf("fixture not clean: %q", got)
	}
	return f
}

func TestGitCheckoutSwitchesLikeGit(t *testing.T) {
	f := newBranchFixture(t)
	f.write(map[string]string{"same.txt": "local edit kept\n"})
	var out writecmd.CheckoutOut
	f.ok("git_checkout", map[string]any{"repo_path": f.dir, "branch": "other"}, &out)
	if got := f.git("symbolic-ref", "HEAD"); got != "refs/heads/other" {
		t.Errorf("HEAD = %q", got)
	}
	if got := f.git("status", "--porcelain"); got != " M same.txt" {
		t.Errorf("git status --porcelain = %q, want only the carried-over local edit", got)
	}
	for _, name := range []string{"mod.txt", "new/dir/n.txt", "sub/f.txt"} {
		if got, want := f.read(name), f.git("show", "other:"+name)+"\n"; got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if _, err := os.Lstat(filepath.Join(f.dir, "gone.txt")); !os.IsNotExist(err) {
		t.Errorf("gone.txt still exists: %v", err)
	}
	if diff := cmp.Diff([]string{"mod.txt", "new/dir/n.txt", "sub/f.txt"}, out.Updated); diff != "" {
		t.Errorf("Updated mismatch (-want +got):\n%s", diff)
	}

	f.write(map[string]string{"same.txt": "same\n"})
	f.ok("git_checkout", map[string]any{"repo_path": f.dir, "branch": "master"}, nil)
	if got := f.git("status", "--porcelain", "--untracked-files=all"); got != "" {
		t.Errorf("after switching back git status = %q, want clean", got)
	}
	if _, err := os.Lstat(filepath.Join(f.dir, "new")); !os.IsNotExist(err) {
		t.Errorf("the directory only on other was not pruned: %v", err)
	}
	f.ok("git_checkout", map[string]any{"repo_path": f.dir, "branch": "master"}, nil)
}

func TestGitCheckoutRefusesToLoseChanges(t *testing.T) {
	for _, tt := range []struct {
		name    string
		prepare func(f *writeFixture)
		wantErr string
	}{
		{"modified", func(f *writeFixture) { f.write(map[string]string{"mod.txt": "local\n"}) }, "mod.txt: has uncommitted changes"},
		{"modified deleted file", func(f *writeFixture) { f.write(map[string]string{"gone.txt": "local\n"}) }, "gone.txt: has uncommitted changes"},
		{"staged", func(f *writeFixture) {
			f.write(map[string]string{"sub/f.txt": "staged\n"})
			f.ok("git_add", map[string]any{"repo_path": f.dir, "files": []string{"sub/f.txt"}}, nil)
			f.write(map[string]string{"sub/f.txt": "master f\n"})
		}, "sub/f.txt: has staged changes"},
		{"untracked", func(f *writeFixture) { f.write(map[string]string{"new/dir/n.txt": "mine\n"}) }, "new/dir/n.txt: the untracked file would be overwritten"},
		{"untracked parent", func(f *writeFixture) { f.write(map[string]string{"new": "a file\n"}) }, "through the untracked file new"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newBranchFixture(t)
			tt.prepare(f)
			before := snapshot(t, f)
			f.fails("git_checkout", map[string]any{"repo_path": f.dir, "branch": "other"}, tt.wantErr)
			if diff := cmp.Diff(before, snapshot(t, f)); diff != "" {
				t.Errorf("a refused checkout changed something (-before +after):\n%s", diff)
			}
		})
	}
}

func TestGitCheckoutNeverWritesThroughSymlinkedDir(t *testing.T) {
	for _, inside := range []bool{false, true} {
		t.Run(map[bool]string{false: "to outside", true: "to inside"}[inside], func(t *testing.T) {
			f := newBranchFixture(t)
			target := realTemp(t)
			if inside {
				target = filepath.Join(f.dir, "elsewhere")
				if err := os.Mkdir(target, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(target, "f.txt"), []byte("master f\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(filepath.Join(f.dir, "sub")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(f.dir, "sub")); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, f)
			f.fails("git_checkout", map[string]any{"repo_path": f.dir, "branch": "other"}, "symbolic link sub")
			if got, _ := os.ReadFile(filepath.Join(target, "f.txt")); string(got) != "master f\n" {
				t.Errorf("the symlink target was written: %q", got)
			}
			if diff := cmp.Diff(before, snapshot(t, f)); diff != "" {
				t.Errorf("a refused checkout changed something (-before +after):\n%s", diff)
			}
		})
	}
}

func TestGitCheckoutRefusals(t *testing.T) {
	f := newBranchFixture(t)
	for _, tt := range []struct{ branch, wantErr string }{
		{"-f", "must not start with '-'"},
		{"--force", "must not start with '-'"},
		{"a..b", "'..'"},
		{"missing", "does not exist"},
		{"refs/tags/x", "only refs/heads/"},
	} {
		f.fails("git_checkout", map[string]any{"repo_path": f.dir, "branch": tt.branch}, tt.wantErr)
	}
	if got := f.git("symbolic-ref", "HEAD"); got != "refs/heads/master" {
		t.Errorf("HEAD moved: %q", got)
	}
}

// snapshot is what a refused operation must leave alone: HEAD, the index, status and every worktree file.
func snapshot(t *testing.T, f *writeFixture) map[string]string {
	t.Helper()
	s := map[string]string{
		"HEAD":   f.git("rev-parse", "--symbolic-full-name", "HEAD"),
		"index":  f.git("ls-files", "-s"),
		"status": f.git("status", "--porcelain", "--untracked-files=all"),
	}
	err := filepath.Walk(f.dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(f.dir, p)
		if rel == ".git" {
			return filepath.SkipDir
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			s[rel] = "-> " + target
		case fi.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			s[rel] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGitCheckoutRefusesFilteredFiles(t *testing.T) {
	f := newBranchFixture(t)
	repo, err := git.PlainOpen(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName("lfs"), Create: true}); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{".gitattributes": "*.bin filter=lfs -text\n", "model.bin": "version https://git-lfs.github.com/spec/v1\n"}
	f.write(files)
	f.goGitCommit(repo, "lfs", files)
	if err := w.Checkout(&git.CheckoutOptions{Branch: plumbing.Master, Force: true}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".gitattributes", "model.bin"} {
		os.Remove(filepath.Join(f.dir, name))
	}
	before := snapshot(t, f)
	f.fails("git_checkout", map[string]any{"repo_path": f.dir, "branch": "lfs"}, `model.bin uses the git filter "lfs"`)
	if diff := cmp.Diff(before, snapshot(t, f)); diff != "" {
		t.Errorf("a refused checkout changed something (-before +after):\n%s", diff)
	}
}

func TestGitCheckoutFileDirectorySwap(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"x/inner.txt": "inner\n", "y": "file y\n"})
	repo, err := git.PlainOpen(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName("swap"), Create: true}); err != nil {
		t.Fatal(err)
	}
	gone := map[string]string{"x/inner.txt": "", "y": ""}
	f.write(gone)
	f.goGitCommit(repo, "delete", gone)
	if err := os.Remove(filepath.Join(f.dir, "x")); err != nil {
		t.Fatal(err)
	}
	added := map[string]string{"x": "file x\n", "y/inner.txt": "y inner\n"}
	f.write(added)
	f.goGitCommit(repo, "swap", added)
	if err := w.Checkout(&git.CheckoutOptions{Branch: plumbing.Master, Force: true}); err != nil {
		t.Fatal(err)
	}
	if got := f.git("status", "--porcelain", "--untracked-files=all"); got != "" {
		t.Fatalf("fixture not clean: %q", got)
	}
	for _, branch := range []string{"swap", "master", "swap"} {
		f.ok("git_checkout", map[string]any{"repo_path": f.dir, "branch": branch}, nil)
		if got := f.git("status", "--porcelain", "--untracked-files=all"); got != "" {
			t.Errorf("after switching to %s git status = %q", branch, got)
		}
	}
	if got := f.read("x") + f.read("y/inner.txt"); got != "file x\ny inner\n" {
		t.Errorf("worktree = %q", got)
	}
}
