package grep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// search runs one request over the files of dir named in files.
func search(t *testing.T, dir string, files []string, req Request) *Result {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if req.MaxFileSize == 0 {
		req.MaxFileSize = 1 << 20
	}
	if req.Max == 0 {
		req.Max = 1000
	}
	res, err := Search(context.Background(), req, listTree(root, files))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func mustCompile(t *testing.T, expr string, o Options) *Pattern {
	t.Helper()
	p, err := Compile(expr, o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// shown renders the lines of a result as grep does: path:n: match, path-n- context.
func shown(res *Result) string {
	var b strings.Builder
	for _, h := range res.Files {
		for _, l := range h.Lines {
			sep := "-"
			if l.Match {
				sep = ":"
			}
			fmt.Fprintf(&b, "%s%s%d%s %s\n", h.Rel, sep, l.N, sep, l.Text)
		}
	}
	return b.String()
}

func TestContext(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "f.txt"), "1\n2 hit\n3\n4\n5\n6 hit\n7 hit\n8\n9\n10\n11\n12 hit")
	for _, tt := range []struct {
		name          string
		before, after int
		max           int
		want          string
	}{
		{"none", 0, 0, 0, "f.txt:2: 2 hit\nf.txt:6: 6 hit\nf.txt:7: 7 hit\nf.txt:12: 12 hit\n"},
		{"after", 0, 1, 0, "f.txt:2: 2 hit\nf.txt-3- 3\nf.txt:6: 6 hit\nf.txt:7: 7 hit\nf.txt-8- 8\nf.txt:12: 12 hit\n"},
		{"before", 2, 0, 0, "f.txt-1- 1\nf.txt:2: 2 hit\nf.txt-4- 4\nf.txt-5- 5\nf.txt:6: 6 hit\nf.txt:7: 7 hit\nf.txt-10- 10\nf.txt-11- 11\nf.txt:12: 12 hit\n"},
		{"both overlap", 3, 3, 0, "f.txt-1- 1\nf.txt:2: 2 hit\nf.txt-3- 3\nf.txt-4- 4\nf.txt-5- 5\nf.txt:6: 6 hit\nf.txt:7: 7 hit\nf.txt-8- 8\nf.txt-9- 9\nf.txt-10- 10\nf.txt-11- 11\nf.txt:12: 12 hit\n"},
		{"cut keeps after-context", 0, 1, 2, "f.txt:2: 2 hit\nf.txt-3- 3\nf.txt:6: 6 hit\n"}, // 7 is the next match, not context
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := search(t, dir, []string{"f.txt"}, Request{Pattern: mustCompile(t, "hit", Options{}), Before: tt.before, After: tt.after, Max: tt.max})
			if diff := cmp.Diff(tt.want, shown(res)); diff != "" {
				t.Errorf("lines mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestModes(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 5 {
		name := fmt.Sprintf("f%d.txt", i)
		writeFile(t, filepath.Join(dir, name), strings.Repeat("hit\nmiss\n", i))
		files = append(files, name)
	}
	p := mustCompile(t, "hit", Options{})
	res := search(t, dir, files, Request{Pattern: p, Mode: Count})
	var counts []string
	for _, h := range res.Files {
		counts = append(counts, fmt.Sprintf("%s:%d", h.Rel, h.Matches))
	}
	if diff := cmp.Diff([]string{"f1.txt:1", "f2.txt:2", "f3.txt:3", "f4.txt:4"}, counts); diff != "" {
		t.Errorf("counts mismatch (-want +got):\n%s", diff)
	}
	res = search(t, dir, files, Request{Pattern: p, Mode: FilesWithMatches, Max: 2})
	if len(res.Files) != 2 || res.Files[0].Rel != "f1.txt" || res.Files[1].Rel != "f2.txt" || !res.Cut || len(res.Files[0].Lines) != 0 {
		t.Errorf("files_with_matches, max 2: %+v, want f1.txt, f2.txt, cut, no lines", res)
	}
	res = search(t, dir, files, Request{Pattern: p, Max: 3})
	if res.Matches != 3 || !res.Cut || res.Files[len(res.Files)-1].Rel != "f2.txt" {
		t.Errorf("content, max 3: %d matches, cut %v, files %+v", res.Matches, res.Cut, res.Files)
	}
}

func TestCandidateFilter(t *testing.T) {
	dir := t.TempDir()
	files := []string{"a.txt", "b.txt", "c.txt"}
	for _, f := range files {
		writeFile(t, filepath.Join(dir, f), "needle\n")
	}
	var asked atomic.Int32
	res := search(t, dir, files, Request{Pattern: mustCompile(t, "needle", Options{}), Candidate: func(rel string) bool {
		asked.Add(1)
		return rel != "b.txt"
	}})
	var got []string
	for _, h := range res.Files {
		got = append(got, h.Rel)
	}
	if diff := cmp.Diff([]string{"a.txt", "c.txt"}, got); diff != "" || res.Searched != 3 || asked.Load() != 3 {
		t.Errorf("with b.txt ruled out: files %v (-want +got %s), searched %d, asked %d", got, diff, res.Searched, asked.Load())
	}
}

func TestSkippedFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bin"), "\x00needle\n")
	writeFile(t, filepath.Join(dir, "big"), strings.Repeat("needle ", 200)+"\n")
	writeFile(t, filepath.Join(dir, "ok"), "needle\n")
	files := []string{"big", "bin", "gone", "ok"}
	if err := mkfifo(filepath.Join(dir, "fifo")); err == nil {
		files = append([]string{"fifo"}, files...) // a FIFO the walk did not see coming: opened without blocking, never read
	} else if runtime.GOOS != "windows" {
		t.Fatal(err)
	}
	res := search(t, dir, files, Request{Pattern: mustCompile(t, "needle", Options{}), MaxFileSize: 1000})
	if res.Binary != 1 || res.TooLarge != 1 || res.Searched != 1 || len(res.Files) != 1 || res.Files[0].Rel != "ok" {
		t.Errorf("binary %d, too large %d, searched %d, files %+v; want 1, 1, 1, [ok]", res.Binary, res.TooLarge, res.Searched, res.Files)
	}
}

// A huge single-line file above the limit is skipped before it is read; one
// below it is searched and its line shown cut.
func TestHugeLine(t *testing.T) {
	dir := t.TempDir()
	line := strings.Repeat("x", 3<<20) + "needle"
	writeFile(t, filepath.Join(dir, "huge"), line)
	res := search(t, dir, []string{"huge"}, Request{Pattern: mustCompile(t, "needle", Options{}), MaxFileSize: 1 << 20})
	if res.TooLarge != 1 || len(res.Files) != 0 {
		t.Errorf("above the limit: too large %d, files %d", res.TooLarge, len(res.Files))
	}
	res = search(t, dir, []string{"huge"}, Request{Pattern: mustCompile(t, "needle", Options{}), MaxFileSize: 4 << 20})
	if len(res.Files) != 1 || len(res.Files[0].Lines[0].Text) > MaxLineText+len("…") {
		t.Errorf("below the limit: %d files, line of %d bytes", len(res.Files), len(res.Files[0].Lines[0].Text))
	}
}

// RE2 keeps pathological patterns linear: this one would take exponential
// time in a backtracking engine. The search must end on its own, well
// before the context's deadline ends it.
func TestPathologicalPattern(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a"), strings.Repeat(strings.Repeat("a", 5000)+"\n", 50))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	p := mustCompile(t, `(a+)+(a*)*(a|aa)*$b`, Options{})
	res, err := Search(ctx, Request{Pattern: p, Max: 10, MaxFileSize: 1 << 20}, listTree(root, []string{"a"}))
	if err != nil || ctx.Err() != nil {
		t.Fatalf("search: %v; context: %v", err, ctx.Err())
	}
	if res.Matches != 0 || res.Searched != 1 {
		t.Errorf("%d matches in %d files, want 0 in 1", res.Matches, res.Searched)
	}
}

func TestCancelled(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a"), "needle\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := Search(ctx, Request{Pattern: mustCompile(t, "needle", Options{}), Max: 10, MaxFileSize: 1 << 20}, listTree(root, []string{"a"})); err == nil {
		t.Error("a cancelled search succeeded")
	}
}

func TestTypeFilter(t *testing.T) {
	for _, tt := range []struct {
		typ, name string
		want      bool
	}{
		{"go", "main.go", true}, {"go", "main.go.txt", false}, {"c", "x.h", true}, {"c", "x.H", true},
		{"cpp", "x.cc", true}, {"make", "Makefile", true}, {"make", "GNUmakefile", true}, {"py", "x.pyc", false},
		{"ts", "x.tsx", true}, {"md", "README.md", true}, {"sh", ".bashrc", true}, {"docker", "Dockerfile.dev", true},
	} {
		keep, err := TypeFilter(tt.typ)
		if err != nil {
			t.Fatal(err)
		}
		if got := keep(tt.name); got != tt.want {
			t.Errorf("type %s, %s: %v, want %v", tt.typ, tt.name, got, tt.want)
		}
	}
	if _, err := TypeFilter("klingon"); err == nil || !strings.Contains(err.Error(), "known types: asm") {
		t.Errorf("unknown type: %v", err)
	}
}

// The queue hands out the walk's files in order, whole runs while the walk
// goes on and shrinking ones once it has ended, and wakes a waiting worker
// when the search is cancelled.
func TestQueueRuns(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	q := newQueue(ctx)
	defer q.release()
	var rels []string
	for i := range 100 {
		rels = append(rels, fmt.Sprint(i))
	}
	q.add(rels[:batchSize], nil)
	first, got, _, ok := q.take()
	if !ok || first != 0 || len(got) != batchSize {
		t.Fatalf("first run: %d, %d files, %v", first, len(got), ok)
	}
	ruled := make([]bool, len(rels)-batchSize)
	ruled[0] = true
	q.add(rels[batchSize:], ruled)
	q.close()
	next, sizes := batchSize, []int{}
	for {
		first, got, r, ok := q.take()
		if !ok {
			break
		}
		if first != next || got[0] != rels[first] || r == nil || r[0] != (first == batchSize) {
			t.Fatalf("run at %d (%q, ruled %v), want the one at %d", first, got, r, next)
		}
		next += len(got)
		sizes = append(sizes, len(got))
	}
	if next != len(rels) {
		t.Fatalf("handed out %d files of %d", next, len(rels))
	}
	if !slices.IsSortedFunc(sizes, func(a, b int) int { return b - a }) || sizes[0] != batchSize || sizes[len(sizes)-1] != 1 {
		t.Errorf("run sizes after the walk ended %v: want them shrinking from %d to 1", sizes, batchSize)
	}
	q2 := newQueue(ctx)
	defer q2.release()
	done := make(chan bool)
	go func() {
		_, _, _, ok := q2.take()
		done <- ok
	}()
	cancel()
	select {
	case ok := <-done:
		if ok {
			t.Error("a cancelled take handed out files")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a take waiting for files did not end with the search")
	}
}
