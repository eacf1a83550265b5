package ignore

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/testenv"
)

// benchGitignore is a realistic top-level .gitignore for the generated tree.
const benchGitignore = `# build output
/build/
*.o
*.a
*.so
*.pyc
__pycache__/
node_modules/
.DS_Store
*.log
!keep.log
/coverage/
**/tmp/
docs/**/*.pdf
*.swp
*~
.idea/
vendor/*
!vendor/modules.txt
`

var benchTree struct {
	once sync.Once
	dir  string
	err  error
}

// benchDir generates, once per process, a tree of 2,000 directories (three
// levels) holding 20,000 files, a tenth of them ignored, with a nested
// .gitignore in every tenth directory.
func benchDir(b *testing.B) string {
	b.Helper()
	benchTree.once.Do(func() {
		dir, err := os.MkdirTemp("", "ignore-bench-")
		if err != nil {
			benchTree.err = err
			return
		}
		benchTree.dir = dir
		benchTree.err = genTree(dir)
	})
	if benchTree.err != nil {
		b.Fatal(benchTree.err)
	}
	return benchTree.dir
}

func genTree(dir string) error {
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(benchGitignore), 0o644); err != nil {
		return err
	}
	exts := []string{".go", ".c", ".h", ".md", ".txt", ".json", ".yaml", ".js", ".py", ".o"}
	for d := range 2000 {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%02d", d/100), fmt.Sprintf("mod%02d", d/10%10), fmt.Sprintf("dir%d", d%10))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		if d%10 == 0 {
			if err := os.WriteFile(filepath.Join(sub, ".gitignore"), []byte("*.gen\n!keep.gen\n/local/\n"), 0o644); err != nil {
				return err
			}
		}
		for f := range 10 {
			name := filepath.Join(sub, fmt.Sprintf("file%d%s", f, exts[(d+f)%len(exts)]))
			if err := os.WriteFile(name, nil, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

func BenchmarkWalk(b *testing.B) {
	dir := benchDir(b)
	m, err := New(dir)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	start := cpuTime()
	for b.Loop() {
		n = 0
		err := m.Walk(context.Background(), func(string, fs.DirEntry) error {
			n++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "entries")
	reportCPU(b, start)
}

// reportCPU reports the CPU time per operation since start, in ms.
func reportCPU(b *testing.B, start time.Duration) {
	if start > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
	}
}

// BenchmarkWalkDir is the floor: a plain filepath.WalkDir of the same tree.
func BenchmarkWalkDir(b *testing.B) {
	dir := benchDir(b)
	start := cpuTime()
	for b.Loop() {
		filepath.WalkDir(dir, func(string, fs.DirEntry, error) error { return nil })
	}
	reportCPU(b, start)
}

func BenchmarkIgnored(b *testing.B) {
	dir := benchDir(b)
	m, err := New(dir)
	if err != nil {
		b.Fatal(err)
	}
	var paths []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if rel, _ := filepath.Rel(dir, p); rel != "." {
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	start := cpuTime()
	for i := 0; b.Loop(); i++ {
		m.Ignored(paths[i%len(paths)], false)
	}
	if start > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

// TestMain says once that git is missing (the differential tests check the
// matcher against it), and removes the benchmark tree, which is shared by all
// benchmarks of one run.
func TestMain(m *testing.M) {
	code := testenv.NeedGit(m)
	if benchTree.dir != "" {
		os.RemoveAll(benchTree.dir)
	}
	os.Exit(code)
}

// benchMatchIgnore adds character classes, "**" in every position and
// escapes to benchGitignore, for BenchmarkMatch.
const benchMatchIgnore = benchGitignore + `[Bb]uild[0-9]/
*.[oa]
file[!0-4].*
**/mod0[1-3]/**/file?.go
pkg0*/**/dir[[:digit:]]/*.json
\#*
pkg1?/mod*/dir5/
**/*.y[a]ml
`

// BenchmarkMatch is the pattern matcher alone: every path of the benchmark
// tree's shape against one list, with no I/O.
func BenchmarkMatch(b *testing.B) {
	l := parse([]byte(benchMatchIgnore), "", ".gitignore")
	exts := []string{".go", ".c", ".h", ".md", ".txt", ".json", ".yaml", ".js", ".py", ".o"}
	type entry struct {
		path, name string
		dir        bool
	}
	var paths []entry
	for d := range 2000 {
		dir := fmt.Sprintf("pkg%02d/mod%02d/dir%d", d/100, d/10%10, d%10)
		paths = append(paths, entry{dir, fmt.Sprintf("dir%d", d%10), true})
		for f := range 10 {
			name := fmt.Sprintf("file%d%s", f, exts[(d+f)%len(exts)])
			paths = append(paths, entry{dir + "/" + name, name, false})
		}
	}
	n := 0
	start := cpuTime()
	for i := 0; b.Loop(); i++ {
		e := paths[i%len(paths)]
		if l.match(e.path, e.name, e.dir) != nil {
			n++
		}
	}
	if start > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
	if n == 0 {
		b.Fatal("no path matched")
	}
}
