package fsres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/grove-mcp/grove/scope"
	"github.com/grove-mcp/grove/watch"
)

// watchChanges adapts a watch.Feed to DirChanges, as the server does.
type watchChanges struct{ f *watch.Feed }

func (c watchChanges) Sync(ctx context.Context) ([]string, bool, error) {
	ch, err := c.f.Sync(ctx)
	return ch.Paths, ch.Lost, err
}
func (c watchChanges) Cover(dirs []string) bool { return c.f.Cover(dirs) }
func (c watchChanges) Close()                   { c.f.Close() }

// indexedFiles returns Files over root whose grep keeps a trigram index fed by a real watcher.
func indexedFiles(t testing.TB, root string, maxRead int64) *Files {
	t.Helper()
	w, err := watch.New(watch.Options{})
	must(t, err)
	t.Cleanup(func() { w.Close() })
	must(t, w.SetRoots([]string{root}))
	f := New(Options{Scope: scope.Static(testScope(t, root)), MaxReadBytes: maxRead})
	f.SetChanges(func(dir string) DirChanges { return watchChanges{w.Subscribe(dir)} })
	t.Cleanup(func() { f.Close() })
	return f
}

var diffWords = []string{"alpha", "Beta", "GAMMA", "delta_epsilon", "func", "main", "return", "TODO", "fixme", "FIXME:",
	"k8s", "Kelvin", "straße", "naïve", "日本語", "a.b", "x*y", "(paren)", "tab\there", "end;", "  indented", "0x1F", "foo_bar",
	"fooBar", "foobar", "foo", "bar", "€uro", "\u212aelvin", "ſtring"}

func randomLines(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(12) {
		for j := range 1 + r.IntN(6) {
			if j > 0 {
				b.WriteString([]string{" ", "", "\t", "."}[r.IntN(4)])
			}
			b.WriteString(diffWords[r.IntN(len(diffWords))])
		}
		b.WriteString([]string{"\n", "\n", "\r\n"}[r.IntN(3)])
	}
	return b.String()
}

// TestGrepIndexedEqualsCold greps a generated tree with and without the trigram index while files
// are edited, created, renamed and removed between (and right before) the calls: every answer is
// the same, text and structure.
func TestGrepIndexedEqualsCold(t *testing.T) {
	root := tempRoot(t)
	r := rand.New(rand.NewPCG(7, 11))
	var names []string
	for i := range 150 {
		name := fmt.Sprintf("d%d/e%d/f%d.txt", i%5, i%3, i)
		names = append(names, name)
		writeFile(t, root, name, randomLines(r))
	}
	writeFile(t, root, "bin.dat", "alpha\x00beta")
	writeFile(t, root, "big.txt", strings.Repeat("alpha main\n", 2000)) // above the limit
	writeFile(t, root, ".gitignore", "ignored/\n")
	writeFile(t, root, "ignored/x.txt", "alpha")
	const maxRead = 8 << 10
	warmF, coldF := indexedFiles(t, root, maxRead), New(Options{Scope: scope.Static(testScope(t, root)), MaxReadBytes: maxRead})
	warmCS, coldCS := connect(t, warmF, modern), connect(t, coldF, modern)
	patterns := []GrepArgs{
		{Pattern: "alpha"}, {Pattern: "Beta"}, {Pattern: "beta", CaseInsensitive: true}, {Pattern: "GAMMA|delta"},
		{Pattern: "foo(bar|_bar)"}, {Pattern: "fooBar", CaseInsensitive: true}, {Pattern: `\bfoo\b`}, {Pattern: "foo", Word: true},
		{Pattern: "x*y", FixedStrings: true}, {Pattern: "(paren)", FixedStrings: true}, {Pattern: "a.b", FixedStrings: true},
		{Pattern: "a.b"}, {Pattern: "^func main"}, {Pattern: "end;$"}, {Pattern: "TODO.*fixme"}, {Pattern: "(?i)todo.*FIXME"},
		{Pattern: "FIXME:"}, {Pattern: "k8s|K8S"}, {Pattern: "kelvin", CaseInsensitive: true}, {Pattern: "KELVIN", CaseInsensitive: true},
		{Pattern: "straße"}, {Pattern: "STRASSE", CaseInsensitive: true}, {Pattern: "STRING", CaseInsensitive: true},
		{Pattern: "naïve|日本"}, {Pattern: "€uro"}, {Pattern: `0x[0-9A-F]+`}, {Pattern: `[a-z]+_[a-z]+`}, {Pattern: `ret(urn)?`},
		{Pattern: `(alpha|beta){2}`}, {Pattern: `alpha\s+main`}, {Pattern: "main\nreturn", Multiline: true},
		{Pattern: "(?s)alpha.*omega", Multiline: true}, {Pattern: "tab\there"}, {Pattern: "  indented"}, {Pattern: "x"},
		{Pattern: "new_[0-9]+_token"}, {Pattern: "alpha", Glob: "d1/**"}, {Pattern: "main", Path: "d2"},
		{Pattern: "return", OutputMode: "count"}, {Pattern: "func", OutputMode: "files_with_matches"},
	}
	compare := func(round int) {
		t.Helper()
		for _, args := range patterns {
			args.MaxResults = 100000
			var warm, cold GrepResult
			warmText := toolOK(t, warmCS, "grep", args, &warm)
			coldText := toolOK(t, coldCS, "grep", args, &cold)
			if diff := cmp.Diff(cold, warm, cmpopts.IgnoreUnexported(GrepResult{})); diff != "" {
				t.Fatalf("round %d, %+v: indexed answer differs (-cold +indexed):\n%s", round, args, diff)
			}
			if warmText != coldText {
				t.Fatalf("round %d, %+v: indexed text differs:\n%s\nwant:\n%s", round, args, warmText, coldText)
			}
		}
	}
	toolOK(t, warmCS, "grep", GrepArgs{Pattern: "alpha"}, nil) // starts the build
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if !warmF.WaitGrepIndex(ctx, root) {
		t.Fatalf("no index: %+v", warmF.GrepIndexes())
	}
	var opened atomic.Int64
	testHookGrepFile = func(string) { opened.Add(1) }
	defer func() { testHookGrepFile = nil }()
	toolOK(t, warmCS, "grep", GrepArgs{Pattern: "delta_epsilon.*Kelvin"}, nil)
	if n := opened.Load(); n >= int64(len(names))/2 {
		t.Errorf("a selective pattern opened %d of %d files: the index was not used", n, len(names))
	}
	testHookGrepFile = nil
	next := len(names)
	for round := range 6 {
		compare(round)
		for range 8 {
			writeFile(t, root, names[r.IntN(len(names))], randomLines(r)+fmt.Sprintf("new_%d_token\n", round))
		}
		for range 3 {
			name := fmt.Sprintf("d%d/new/g%d.txt", r.IntN(5), next)
			next++
			names = append(names, name)
			writeFile(t, root, name, randomLines(r))
		}
		i := r.IntN(len(names))
		os.Remove(filepath.Join(root, filepath.FromSlash(names[i])))
		j := r.IntN(len(names))
		os.Rename(filepath.Join(root, filepath.FromSlash(names[j])), filepath.Join(root, fmt.Sprintf("moved%d.txt", round)))
		switch round {
		case 1:
			writeFile(t, root, ".gitignore", "ignored/\nd3/\n")
		case 2:
			writeFile(t, root, "d1/.gitignore", "*.txt\n!f1*.txt\n")
		case 4:
			writeFile(t, root, ".gitignore", "ignored/\n")
			os.Remove(filepath.Join(root, "d1", ".gitignore"))
		}
		if round == 3 {
			writeFile(t, root, names[0], "alpha\x00now binary")
			os.RemoveAll(filepath.Join(root, "d4", "e1"))
		}
	}
	compare(6)
	warmF.WaitGrepIndex(ctx, root) // a rebuild waits for the last answer to be written (trigram.Indexes.Settle)
	if st := warmF.GrepIndexes()[root]; st.State != "ready" {
		t.Errorf("after the rounds the index is %+v, want ready", st)
	}
}

// tempRoot is t.TempDir with symlinks resolved, as roots are real paths.
func tempRoot(t *testing.T) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	return dir
}

func writeFile(t *testing.T, root, rel, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.WriteFile(p, []byte(data), 0o644))
}
