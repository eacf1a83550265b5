//go:build linux

package writecmd

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func newTestDirFS(t *testing.T) (string, *dirFS) {
	t.Helper()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	d, ok := newTxFS(root).(*dirFS)
	if !ok {
		t.Fatal("newTxFS did not give a dirFS on Linux")
	}
	t.Cleanup(d.Close)
	return dir, d
}

// A directory replaced by a symlink is not followed, not even to a directory inside the worktree, and a
// handle of a removed or renamed directory is not used for the directory made at its path afterwards.
func TestDirFSNeverFollowsSymlinksAndForgetsMovedDirectories(t *testing.T) {
	dir, d := newTestDirFS(t)
	outside := t.TempDir()
	for _, p := range []string{"a", "inside"} {
		if err := d.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("inside", filepath.Join(dir, "in")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"out/x", "in/x"} {
		if f, err := d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
			f.Close()
			t.Errorf("created %s through a symlink", name)
		} else if !errors.Is(err, syscall.ELOOP) && !errors.Is(err, syscall.ENOTDIR) {
			t.Errorf("creating %s: %v, want ELOOP", name, err)
		}
		if d.RealDir(filepath.Dir(name)) {
			t.Errorf("RealDir(%s) is true for a symlink", filepath.Dir(name))
		}
		if err := d.CheckParents(name); err == nil {
			t.Errorf("CheckParents(%s) accepted a symlinked parent", name)
		}
	}
	if ents, _ := os.ReadDir(outside); len(ents) > 0 {
		t.Fatalf("something was written outside: %v", ents)
	}
	if f, err := d.OpenFile("a/f", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err != nil {
		t.Fatal(err)
	} else {
		f.Close()
	}
	if err := d.Rename("a", "moved"); err != nil {
		t.Fatal(err)
	}
	if err := d.Mkdir("a", 0o755); err != nil {
		t.Fatal(err)
	}
	if f, err := d.OpenFile("a/g", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err != nil {
		t.Fatal(err)
	} else {
		f.Close()
	}
	if _, err := os.Lstat(filepath.Join(dir, "a", "g")); err != nil {
		t.Errorf("a/g written after a was moved away and made again is not in the new a: %v", err)
	}
	if err := d.Remove("a/g"); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove("a"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Lstat("a/g"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Lstat under a removed directory: %v, want not exist", err)
	}
	fi, err := d.Lstat("moved/f")
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != 0 || fi.Name() != "f" {
		t.Errorf("Lstat(moved/f) = %v %v", fi, err)
	}
	if fi, err := d.Lstat("out"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat(out) = %v %v, want the symlink itself", fi, err)
	}
}

// Past maxDirHandles the handles are closed and opened again, and every step still lands where it should.
func TestDirFSBoundsItsHandles(t *testing.T) {
	dir, d := newTestDirFS(t)
	for i := range 2*maxDirHandles + 3 {
		p := filepath.Join("d", string(rune('a'+i%26))+string(rune('a'+i/26)))
		if i == 0 {
			if err := d.Mkdir("d", 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := d.OpenFile(filepath.Join(p, "f"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if n := len(d.fds); n > maxDirHandles {
			t.Fatalf("%d handles open", n)
		}
		if _, err := os.Lstat(filepath.Join(dir, p, "f")); err != nil {
			t.Fatal(err)
		}
	}
}

// Paths that would leave the worktree through the handles are refused before any system call.
func TestDirFSRefusesPathsOutOfTheWorktree(t *testing.T) {
	dir, d := newTestDirFS(t)
	if err := d.Mkdir("a", 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Base(t.TempDir()) // a sibling of nothing: what matters is that no call reaches it
	for _, name := range []string{"../" + outside, "a/../../x", "/etc/passwd", "a//b", "a/./b", ""} {
		if f, err := d.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
			f.Close()
			t.Errorf("OpenFile(%q) succeeded", name)
		} else if !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("OpenFile(%q): %v, want fs.ErrInvalid", name, err)
		}
		if _, err := d.Lstat(name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Lstat(%q): %v, want fs.ErrInvalid", name, err)
		}
	}
	if err := d.Rename("a", "../moved"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("Rename(a, ../moved): %v, want fs.ErrInvalid", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a")); err != nil {
		t.Errorf("a after the refused rename: %v", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "moved")); err == nil {
		t.Error("the refused rename moved a out of the worktree")
	}
}

// A held directory stays usable after the handle cache has closed its own handle of it, creates only single
// names in it, and an exchange swaps two files in one step.
func TestDirFSHeldDirectoryAndExchange(t *testing.T) {
	dir, d := newTestDirFS(t)
	if err := d.Mkdir("a", 0o755); err != nil {
		t.Fatal(err)
	}
	h, err := d.Hold("a")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	for i := range maxDirHandles + 2 { // evicts every cached handle, a's included
		p := filepath.Join("b", string(rune('a'+i%26))+string(rune('a'+i/26)))
		if i == 0 {
			if err := d.Mkdir("b", 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if !d.RealDir(filepath.ToSlash(p)) {
			t.Fatalf("%s is not a real directory", p)
		}
	}
	if _, ok := d.fds["a"]; ok {
		t.Fatal("the cache still holds a's handle: nothing tests the held one")
	}
	f, err := h.Create("new", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new\n")
	f.Close()
	for _, bad := range []string{"../escape", "x/y", "..", ""} {
		if f, err := h.Create(bad, 0o644); err == nil {
			f.Close()
			t.Errorf("Create(%q) succeeded", bad)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "old"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	switch err := d.Exchange(filepath.Join("a", "new"), filepath.Join("a", "old")); {
	case errors.Is(err, errors.ErrUnsupported):
		t.Skip("this file system cannot exchange")
	case err != nil:
		t.Fatal(err)
	}
	for name, want := range map[string]string{"old": "new\n", "new": "old\n"} {
		if got, err := os.ReadFile(filepath.Join(dir, "a", name)); err != nil || string(got) != want {
			t.Errorf("after the exchange a/%s holds %q (%v), want %q", name, got, err, want)
		}
	}
	if err := d.Exchange(filepath.Join("a", "new"), filepath.Join("a", "missing")); err == nil || errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("exchange with a missing file: %v, want a failure of its own", err)
	}
}
