package gittools

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/scan"

	"github.com/google/go-cmp/cmp"
)

// TestStatusFastStatSameAsStatter checks that proving files clean from raw stat data (fastStat) gives the
// same status as the statter alone, sequential and parallel, with the tracked files preloaded (scan.Preload)
// or stat-ed by the untracked walk, and as git. The files are dated an hour back
// before they are staged, so the index is not racy and fastStat decides most entries.
func TestStatusFastStatSameAsStatter(t *testing.T) {
	f := newFixture(t)
	var files []string
	for i := range 40 {
		files = append(files, fmt.Sprintf("d%d/sub/f%d.txt", i%5, i), fmt.Sprintf("content %d\n", i))
	}
	f.write(append(files, "a.txt", "aaaaaa\n", "same.txt", "ssssss\n", "exec.sh", "x\n", "link.txt", "l\n",
		"gone.txt", "g\n", "todir.txt", "t\n", "dir/x.txt", "x\n")...)
	past := time.Now().Add(-time.Hour)
	err := filepath.Walk(f.dir, func(p string, _ os.FileInfo, err error) error {
		if err == nil && filepath.Base(filepath.Dir(p)) != ".git" {
			err = os.Chtimes(p, past, past)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	f.commit("initial")
	f.write("a.txt", "bbbbbb\n", "d3/sub/new.txt", "n\n", "untracked/u.txt", "u\n")
	os.Chtimes(filepath.Join(f.dir, "same.txt"), past.Add(time.Minute), past.Add(time.Minute))
	os.Chmod(filepath.Join(f.dir, "exec.sh"), 0o755)
	os.Remove(filepath.Join(f.dir, "link.txt"))
	os.Symlink("a.txt", filepath.Join(f.dir, "link.txt"))
	os.Remove(filepath.Join(f.dir, "gone.txt"))
	os.Remove(filepath.Join(f.dir, "todir.txt"))
	os.Mkdir(filepath.Join(f.dir, "todir.txt"), 0o755)
	os.Rename(filepath.Join(f.dir, "dir"), filepath.Join(f.dir, "elsewhere"))
	os.Symlink("elsewhere", filepath.Join(f.dir, "dir"))
	want := gitStatus(f)
	defer func(n, pre, chunk int, fast bool) {
		scan.MinParallelScan, scan.MinPreload, scan.PreloadChunk, scan.UseFastStat = n, pre, chunk, fast
	}(scan.MinParallelScan, scan.MinPreload, scan.PreloadChunk, scan.UseFastStat)
	for _, tt := range []struct {
		name     string
		parallel int
		preload  int
		chunk    int
		fast     bool
	}{
		{"statter", 4096, 4096, 512, false},
		{"fast", 4096, 4096, 512, true},
		{"fast parallel", 1, 4096, 512, true},
		{"preloaded", 4096, 1, 512, true},
		{"preloaded in chunks", 4096, 1, 3, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			scan.MinParallelScan, scan.MinPreload, scan.PreloadChunk, scan.UseFastStat = tt.parallel, tt.preload, tt.chunk, tt.fast
			if diff := cmp.Diff(want, statusLines(t, f)); diff != "" {
				t.Errorf("status mismatch (-git +grove):\n%s", diff)
			}
		})
	}
}
