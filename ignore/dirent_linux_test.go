package ignore

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

func TestLstatEntry(t *testing.T) {
	m, dir := newTree(t, walkTree)
	if err := os.Symlink("a", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "b", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	got, want := map[string]uint64{}, map[string]uint64{}
	var kept fs.DirEntry
	err := m.WalkParallel(context.Background(), 2, func(rel string, d fs.DirEntry) error {
		var st unix.Stat_t
		if err := LstatEntry(d, &st); err != nil {
			return err
		}
		var ost syscall.Stat_t
		if err := syscall.Lstat(filepath.Join(dir, rel), &ost); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		got[rel], want[rel] = st.Ino, ost.Ino
		kept = d
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 10 {
		t.Errorf("LstatEntry saw only %d entries", len(got))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LstatEntry inodes (-lstat +LstatEntry):\n%s", diff)
	}
	var st unix.Stat_t
	if err := LstatEntry(kept, &st); err == nil {
		t.Error("LstatEntry works after the walk ended")
	}
}
