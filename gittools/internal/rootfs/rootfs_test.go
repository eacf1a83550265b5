package rootfs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// newFS makes dir/in (returned as an FS) beside dir/out, which holds secret.
func newFS(t *testing.T) (*FS, string, string) {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	for _, d := range []string{in, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(out, "secret"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(in)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return New(r, in), in, out
}

func TestEscapesAreRefused(t *testing.T) {
	f, in, out := newFS(t)
	if err := os.Symlink(out, filepath.Join(in, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../out/secret", filepath.Join(in, "rel")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../out/secret", filepath.Join(out, "secret"), "link/secret", "rel"} {
		t.Run(name, func(t *testing.T) {
			if file, err := f.Open(name); err == nil {
				data, _ := io.ReadAll(file)
				file.Close()
				t.Fatalf("Open(%q) read %q", name, data)
			}
			if _, err := f.Stat(name); err == nil {
				t.Errorf("Stat(%q) succeeded", name)
			}
			if _, err := f.Create(filepath.Join(name, "new")); err == nil {
				t.Errorf("Create below %q succeeded", name)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(out, "new")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file appeared outside: %v", err)
	}
}

func TestAbsoluteNamesInsideAreRelative(t *testing.T) {
	f, in, _ := newFS(t)
	w, err := f.Create(filepath.Join(in, "a", "b.txt"))
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("hi"))
	w.Close()
	data, err := os.ReadFile(filepath.Join(in, "a", "b.txt"))
	if err != nil || string(data) != "hi" {
		t.Fatalf("got %q, %v", data, err)
	}
	sub, err := f.Chroot("a")
	if err != nil {
		t.Fatal(err)
	}
	if sub.Root() != filepath.Join(in, "a") {
		t.Errorf("Root() = %q", sub.Root())
	}
	if _, err := sub.Stat("b.txt"); err != nil {
		t.Errorf("Stat through Chroot: %v", err)
	}
	if _, err := sub.Stat("../../out/secret"); err == nil {
		t.Error("Chroot let .. out")
	}
}

func TestTempFileRenameStaysInside(t *testing.T) {
	f, in, _ := newFS(t)
	tmp, err := f.TempFile("objects/pack", "tmp_")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(tmp.Name()) != filepath.Join("objects", "pack") {
		t.Errorf("temp name %q", tmp.Name())
	}
	tmp.Write([]byte("pack"))
	tmp.Close()
	if err := f.Rename(tmp.Name(), "objects/pack/final"); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(in, "objects", "pack", "final")); err != nil || string(data) != "pack" {
		t.Fatalf("got %q, %v", data, err)
	}
	infos, err := f.ReadDir("objects/pack")
	if err != nil || len(infos) != 1 || infos[0].Name() != "final" {
		t.Fatalf("ReadDir = %v, %v", infos, err)
	}
}

func TestGoGitStorageRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if _, err := git.PlainInit(dir, false); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(filepath.Join(dir, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st := filesystem.NewStorage(New(r, filepath.Join(dir, ".git")), cache.NewObjectLRUDefault())
	obj := st.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, _ := obj.Writer()
	w.Write([]byte("hello\n"))
	w.Close()
	h, err := st.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetReference(plumbing.NewHashReference("refs/heads/x", h)); err != nil {
		t.Fatal(err)
	}
	g, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := g.Reference("refs/heads/x", false)
	if err != nil || ref.Hash() != h {
		t.Fatalf("ref = %v, %v", ref, err)
	}
	blob, err := object.GetBlob(g.Storer, h)
	if err != nil || blob.Size != 6 {
		t.Fatalf("blob = %v, %v", blob, err)
	}
}
