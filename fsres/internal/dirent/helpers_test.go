//go:build linux

package dirent

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// entryDir makes a directory past parallelStatMin entries: files, directories
// and symlinks, plus .git, a build directory and app.log for ignore rules.
func entryDir(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "app.log"), []byte("log\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(root, ".git", "objects"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "build"), 0o755))
	for i := range 600 { // past parallelStatMin
		name := filepath.Join(root, "f"+strconv.Itoa(i*7919%1000))
		switch i % 5 {
		case 0:
			must(t, os.Mkdir(name+".d", 0o755))
		case 1:
			must(t, os.Symlink("a.txt", name+".lnk"))
		default:
			must(t, os.WriteFile(name+".txt", []byte(strings.Repeat("x", i)), 0o644))
		}
	}
	return root
}

// listOld lists dir the plain way: os.File.ReadDir, an Info per file, one
// sort.
func listOld(t *testing.T, root *os.Root, ignored func(string, bool) bool) ([]Entry, int) {
	t.Helper()
	dir, err := root.OpenFile(".", os.O_RDONLY|OpenDirFlags, 0)
	must(t, err)
	defer dir.Close()
	des, err := dir.ReadDir(-1)
	must(t, err)
	var out []Entry
	n := 0
	for _, d := range des {
		if ignored(d.Name(), d.IsDir()) {
			n++
			continue
		}
		e := Entry{Name: d.Name(), Type: TypeName(d.Type())}
		if e.Type == TypeFile {
			info, err := d.Info()
			must(t, err)
			e.Size = info.Size()
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int {
		if (a.Type == TypeDir) != (b.Type == TypeDir) {
			if a.Type == TypeDir {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, n
}

// reportCPU reports the CPU time per iteration of the benchmark b when the
// returned function runs.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

// cpuTime returns the CPU time the process has used, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
