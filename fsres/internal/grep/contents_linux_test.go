package grep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

// keptTree writes files (name → text) below a new directory and returns
// an opener of its second search, with texts kept however recent their
// files.
func keptTree(t *testing.T, files map[string]string) (dir string, o *dirOpener) {
	t.Helper()
	old := contentRacy
	t.Cleanup(func() { contentRacy = old })
	contentRacy = 0
	dir = t.TempDir()
	root := filepath.Join(dir, "root")
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	KeepTexts(r, contentBudget)
	t.Cleanup(func() { KeepTexts(r, 0) })
	DirOpener(r, ".")
	o = DirOpener(r, ".")().(*dirOpener)
	t.Cleanup(o.Close)
	return dir, o
}

// readTwice reads rel and reports whether the second read was served
// from the kept text.
func readTwice(t *testing.T, o *dirOpener, rel string) (first, second string, kept bool) {
	t.Helper()
	a, err := o.ReadFile(rel, 1<<20, nil)
	if err != nil {
		t.Fatalf("first read of %s: %v", rel, err)
	}
	hits := contents.hits.Load()
	b, err := o.ReadFile(rel, 1<<20, nil)
	if err != nil {
		t.Fatalf("second read of %s: %v", rel, err)
	}
	return string(a), string(b), contents.hits.Load() > hits
}

func TestKeptText(t *testing.T) {
	_, o := keptTree(t, map[string]string{"a.c": "int a;\n", "sub/b.c": "return b;\n", "bin": "x\x00y"})
	for _, tt := range []struct {
		rel, want string
		kept      bool
	}{
		{"a.c", "int a;\n", true},
		{"sub/b.c", "return b;\n", true},
		{"bin", "x\x00y", false}, // binary: searched no further, not worth keeping
	} {
		first, second, kept := readTwice(t, o, tt.rel)
		if first != tt.want || second != tt.want || kept != tt.kept {
			t.Errorf("%s: read %q then %q (kept %v), want %q (kept %v)", tt.rel, first, second, kept, tt.want, tt.kept)
		}
	}
	if _, err := o.ReadFile("a.c", 3, nil); !errors.Is(err, errTooLarge) {
		t.Errorf("kept a.c with limit 3: %v, want errTooLarge", err)
	}
}

func TestKeptTextFirstSearch(t *testing.T) {
	dir, _ := keptTree(t, map[string]string{"a.c": "int a;\n"})
	dir = filepath.Join(dir, "other")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.c"), []byte("int a;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(dir) // a root not searched before
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	o := DirOpener(r, ".")().(*dirOpener)
	defer o.Close()
	if _, _, kept := readTwice(t, o, "a.c"); kept {
		t.Error("the first search of a root kept a text")
	}
}

func TestKeptTextRecentFile(t *testing.T) {
	_, o := keptTree(t, map[string]string{"a.c": "int a;\n"})
	contentRacy = time.Hour
	if _, _, kept := readTwice(t, o, "a.c"); kept {
		t.Error("a file changed within contentRacy of its read was kept")
	}
}

// TestKeptTextChanged: a file rewritten with a text of the same size is
// read again, once its change time has moved on.
func TestKeptTextChanged(t *testing.T) {
	dir, o := keptTree(t, map[string]string{"a.c": "int a;\n"})
	p := filepath.Join(dir, "root", "a.c")
	if _, _, kept := readTwice(t, o, "a.c"); !kept {
		t.Fatal("a.c was not kept")
	}
	before := ctime(t, p)
	for deadline := time.Now().Add(10 * time.Second); ctime(t, p) == before; {
		if time.Now().After(deadline) {
			t.Fatal("the change time never moved")
		}
		if err := os.WriteFile(p, []byte("int b;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := o.ReadFile("a.c", 1<<20, nil); err != nil || string(got) != "int b;\n" {
		t.Errorf("after the rewrite: %q, %v; want the new text", got, err)
	}
}

func ctime(t *testing.T, p string) syscall.Timespec {
	var st syscall.Stat_t
	if err := syscall.Stat(p, &st); err != nil {
		t.Fatal(err)
	}
	return st.Ctim
}

// TestKeptTextEscapes: a kept file is not served by a path that now leads
// out of the root through a symlink, nor once a FIFO replaces it.
func TestKeptTextEscapes(t *testing.T) {
	dir, o := keptTree(t, map[string]string{"sub/deep/b.c": "return b;\n", "c.c": "int c;\n"})
	for _, rel := range []string{"sub/deep/b.c", "c.c"} {
		if _, _, kept := readTwice(t, o, rel); !kept {
			t.Fatalf("%s was not kept", rel)
		}
	}
	root := filepath.Join(dir, "root")
	if err := os.Rename(filepath.Join(root, "sub"), filepath.Join(dir, "outside")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "outside"), filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "c.c")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "c.c"), 0o644); err != nil {
		t.Fatal(err)
	}
	o.Close() // a new search: its directories are opened anew
	o = DirOpener(o.fsys, ".")().(*dirOpener)
	defer o.Close()
	hits := contents.hits.Load()
	for _, rel := range []string{"sub/deep/b.c", "c.c"} {
		if got, err := o.ReadFile(rel, 1<<20, nil); err == nil {
			t.Errorf("%s: read %q, want an error", rel, got)
		}
	}
	if contents.hits.Load() != hits {
		t.Error("a kept text was served")
	}
}

func TestKeptTextBudget(t *testing.T) {
	c := contentCache{files: make(map[contentKey]*content), budget: 10_000, budgets: map[*os.Root]int{nil: 1 << 20}}
	text := bytes.Repeat([]byte("x"), 1000)
	key := func(i int) contentKey { return contentKey{rel: strings.Repeat("f", i+1)} }
	for i := range 100 {
		c.put(key(i), fileID{ino: uint64(i)}, text, 0, 0, false)
		if c.bytes > c.budget || c.bytes <= 0 {
			t.Fatalf("after %d puts: %d bytes kept, budget %d", i+1, c.bytes, c.budget)
		}
	}
	total := 0
	for k, e := range c.files {
		total += len(e.data) + len(k.rel) + entryCost
	}
	if total != c.bytes || c.files[key(0)] == nil || c.files[key(99)] != nil {
		t.Errorf("%d files of %d bytes, counted %d; want the first ones kept", len(c.files), total, c.bytes)
	}
	c.put(key(0), fileID{ino: 1000}, text[:10], 0, 0, false) // a changed file replaces its old text
	if e := c.files[key(0)]; e == nil || len(e.data) != 10 {
		t.Errorf("the changed file's text: %v", e)
	}
	c.put(contentKey{rel: "huge"}, fileID{}, make([]byte, 20_000), 0, 0, false)
	if c.files[contentKey{rel: "huge"}] != nil || c.bytes > c.budget {
		t.Errorf("a text above the budget was kept (%d bytes)", c.bytes)
	}
}

// TestKeptTextConcurrent reads the same files from two openers at once
// (run with -race).
func TestKeptTextConcurrent(t *testing.T) {
	files := map[string]string{}
	for i := range 50 {
		files[filepath.Join("d", strings.Repeat("n", i+1)+".c")] = strings.Repeat("return x;\n", i+1)
	}
	_, o := keptTree(t, files)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			w := DirOpener(o.fsys, ".")()
			defer w.Close()
			for range 3 {
				for rel, want := range files {
					got, err := w.(FileReader).ReadFile(rel, 1<<20, nil)
					if err != nil || string(got) != want {
						t.Errorf("%s: %q, %v", rel, got, err)
					}
				}
			}
		})
	}
	wg.Wait()
}

// TestKeptTextIdle: texts are dropped contentIdle after the last search
// started, not after the first put.
func TestKeptTextIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &contentCache{files: make(map[contentKey]*content), budget: 1 << 20, budgets: map[*os.Root]int{nil: 1 << 20}}
		k := contentKey{rel: "a.c"}
		c.put(k, fileID{}, []byte("int a;\n"), 0, 0, false)
		time.Sleep(contentIdle - time.Minute)
		if c.get(k) == nil {
			t.Fatal("dropped before contentIdle")
		}
		c.touch()
		time.Sleep(contentIdle - time.Minute) // past the put's contentIdle, within the touch's
		synctest.Wait()
		if c.get(k) == nil {
			t.Fatal("dropped although a search started within contentIdle")
		}
		time.Sleep(contentIdle + time.Second)
		synctest.Wait()
		c.mu.Lock()
		if len(c.files) != 0 || c.bytes != 0 || len(c.perRoot) != 0 || c.idle != nil {
			t.Errorf("after contentIdle unused: %d files, %d bytes kept", len(c.files), c.bytes)
		}
		c.mu.Unlock()
		c.put(k, fileID{}, []byte("int b;\n"), 0, 0, false) // kept again after the drop
		if e := c.get(k); e == nil || string(e.data) != "int b;\n" {
			t.Errorf("a text kept after the drop: %v", e)
		}
	})
}

// A root keeps texts up to the budget KeepTexts gives it, one without a
// budget keeps none, a lowered budget drops the root's texts beyond it
// (and no other root's), and KeptBytes counts what is kept.
func TestKeptTextRootBudget(t *testing.T) {
	var a, b os.Root // distinct keys; never opened
	c := contentCache{files: make(map[contentKey]*content), budget: 1 << 20}
	text := bytes.Repeat([]byte("x"), 1000)
	cost := len(text) + 2 + entryCost
	put := func(r *os.Root, i int) {
		c.put(contentKey{root: r, rel: fmt.Sprintf("%02d", i)}, fileID{}, text, 0, 0, false)
	}
	for i := range 10 {
		put(&a, i)
	}
	if len(c.files) != 0 {
		t.Fatalf("%d texts kept for a root without a budget", len(c.files))
	}
	c.keepTexts(&a, 5*cost)
	c.keepTexts(&b, 5*cost)
	for i := range 10 {
		put(&a, i)
		put(&b, i)
	}
	if c.perRoot[&a] != 5*cost || c.perRoot[&b] != 5*cost || c.bytes != 10*cost {
		t.Fatalf("kept %d and %d bytes (%d in all), want %d each", c.perRoot[&a], c.perRoot[&b], c.bytes, 5*cost)
	}
	c.keepTexts(&a, 2*cost)
	if c.perRoot[&a] > 2*cost || c.perRoot[&b] != 5*cost {
		t.Errorf("after lowering a's budget: a %d, b %d bytes", c.perRoot[&a], c.perRoot[&b])
	}
	c.keepTexts(&b, 0)
	if c.perRoot[&b] != 0 || c.bytes != c.perRoot[&a] {
		t.Errorf("after b's budget went: b %d bytes, %d in all", c.perRoot[&b], c.bytes)
	}
	n := 0
	for k := range c.files {
		if k.root == &b {
			n++
		}
	}
	if n != 0 {
		t.Errorf("%d of b's texts left", n)
	}
}

// Kept texts are lent to searches, not copied: a search reads the next
// file into its own buffer, never into a lent text, so every search of a
// tree finds what the files hold and the kept texts stay as read. The
// budget keeps some texts only, so that files not kept are read after
// lent ones.
func TestKeptTextsLent(t *testing.T) {
	files := map[string]string{}
	var names []string
	for i := range 40 {
		name := fmt.Sprintf("d%d/f%02d.c", i%3, i)
		names = append(names, name)
		files[name] = strings.Repeat(fmt.Sprintf("return %d; /* %s */\n", i, strings.Repeat("x", i*7)), 1+i%5)
	}
	_, o := keptTree(t, files)
	KeepTexts(o.fsys, 12_000) // room for some texts only: the files read after a lent one are read into a buffer
	slices.Sort(names)
	req := Request{Pattern: mustCompile(t, "return", Options{}), Max: 1 << 20, MaxFileSize: 1 << 20}
	hits := contents.hits.Load()
	for round := range 8 {
		res, err := Search(context.Background(), req, listTree(o.fsys, names))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != len(names) {
			t.Fatalf("round %d: %d files with matches, want %d", round, len(res.Files), len(names))
		}
		for _, h := range res.Files {
			var want []string
			for l := range strings.Lines(files[h.Rel]) {
				want = append(want, strings.TrimSuffix(l, "\n"))
			}
			if len(h.Lines) != len(want) {
				t.Fatalf("round %d, %s: %d lines, want %d", round, h.Rel, len(h.Lines), len(want))
			}
			for i, l := range h.Lines {
				if l.Text != want[i] {
					t.Fatalf("round %d, %s line %d: %q, want %q", round, h.Rel, i+1, l.Text, want[i])
				}
			}
		}
	}
	if contents.hits.Load() == hits {
		t.Fatal("no kept text was served")
	}
	for _, name := range names {
		if e := contents.get(o.keyOf(name)); e != nil && string(e.data) != files[name] {
			t.Errorf("the kept text of %s changed: %.40q", name, e.data)
		}
	}
}

// A search its caller vouches for (Synced) uses a text kept by such a
// search without looking at the file: a change the feed did not report is
// not seen (what the fstatat would have caught), and once Forget is told
// of the path, or of a directory above it, the file is read again. A
// search that is not vouched for still checks the file.
func TestKeptTextSynced(t *testing.T) {
	dir, _ := keptTree(t, map[string]string{"a.c": "int a;\n", "sub/deep/b.c": "return b;\n", "c.c": "int c;\n"})
	r := root(t, dir)
	open := func() *dirOpener {
		o := Synced(r, ".")().(*dirOpener)
		t.Cleanup(o.Close)
		return o
	}
	o := open()
	for _, rel := range []string{"a.c", "sub/deep/b.c", "c.c"} {
		if _, second, kept := readTwice(t, o, rel); !kept {
			t.Fatalf("%s: second read %q not served from the kept text", rel, second)
		}
	}
	// New texts, which the fstatat of a search that is not vouched for would see.
	for _, rel := range []string{"a.c", "sub/deep/b.c"} {
		if err := os.WriteFile(filepath.Join(dir, "root", rel), []byte(strings.Repeat("x", len(rel))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := readOnce(t, open(), "a.c"); got != "int a;\n" {
		t.Errorf("vouched search before Forget read %q, want the kept text", got)
	}
	Forget(r, []string{"a.c", "sub"}, false)
	for rel, want := range map[string]string{"a.c": "xxx", "sub/deep/b.c": "xxxxxxxxxxxx", "c.c": "int c;\n"} {
		if got := readOnce(t, open(), rel); got != want {
			t.Errorf("after Forget, %s read %q, want %q", rel, got, want)
		}
	}
	Forget(r, nil, true)
	if n := KeptBytes(r); n != 0 {
		t.Errorf("after Forget of all, %d bytes kept", n)
	}
}

// A text read by a search that began before a Forget is not kept: it may
// be the old text of a path the Forget was about.
func TestKeptTextForgetDuringSearch(t *testing.T) {
	dir, _ := keptTree(t, map[string]string{"a.c": "int a;\n"})
	r := root(t, dir)
	o := Synced(r, ".")().(*dirOpener)
	t.Cleanup(o.Close)
	Forget(r, []string{"elsewhere.c"}, false)
	if _, _, kept := readTwice(t, o, "a.c"); kept {
		t.Error("a text read after a Forget the search began before was kept")
	}
	o2 := Synced(r, ".")().(*dirOpener)
	t.Cleanup(o2.Close)
	if _, _, kept := readTwice(t, o2, "a.c"); !kept {
		t.Error("a search begun after the Forget kept nothing")
	}
}

// A text kept by a search that is not vouched for, then found unchanged by
// one that is (Synced), is vouched for from then on; not when a Forget came
// between the search's start and the check.
func TestKeptTextVouchedAfterCheck(t *testing.T) {
	dir, o := keptTree(t, map[string]string{"a.c": "int a;\n", "b.c": "int b;\n"})
	r := root(t, dir)
	for _, rel := range []string{"a.c", "b.c"} {
		if _, _, kept := readTwice(t, o, rel); !kept {
			t.Fatalf("%s not kept", rel)
		}
	}
	v := Synced(r, ".")().(*dirOpener)
	t.Cleanup(v.Close)
	readOnce(t, v, "a.c") // checked, and vouched for
	Forget(r, []string{"elsewhere.c"}, false)
	readOnce(t, v, "b.c") // checked after a Forget the search began before: not vouched for
	// Another size: a stat tells the change even within one clock tick.
	for _, rel := range []string{"a.c", "b.c"} {
		if err := os.WriteFile(filepath.Join(dir, "root", rel), []byte("int xy;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v2 := Synced(r, ".")().(*dirOpener)
	t.Cleanup(v2.Close)
	if got := readOnce(t, v2, "a.c"); got != "int a;\n" {
		t.Errorf("a.c read %q: the text found unchanged was not vouched for", got)
	}
	if got := readOnce(t, v2, "b.c"); got != "int xy;\n" {
		t.Errorf("b.c read %q: a text checked after a Forget was vouched for", got)
	}
}

// A text kept by a search that is not vouched for is checked even by one
// that is: its file may lie where the feed does not look.
func TestKeptTextUnvouchedChecked(t *testing.T) {
	dir, o := keptTree(t, map[string]string{"a.c": "int a;\n"})
	r := root(t, dir)
	if _, _, kept := readTwice(t, o, "a.c"); !kept {
		t.Fatal("not kept")
	}
	if err := os.WriteFile(filepath.Join(dir, "root", "a.c"), []byte("int bb;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v := Synced(r, ".")().(*dirOpener)
	t.Cleanup(v.Close)
	if got := readOnce(t, v, "a.c"); got != "int bb;\n" {
		t.Errorf("read %q, want the file's new text", got)
	}
}

// root returns the root the openers of keptTree's tree read.
func root(t *testing.T, dir string) *os.Root {
	t.Helper()
	contents.mu.RLock()
	defer contents.mu.RUnlock()
	for k := range contents.budgets {
		if k.Name() == filepath.Join(dir, "root") {
			return k
		}
	}
	t.Fatal("no root with a budget")
	return nil
}

func readOnce(t *testing.T, o *dirOpener, rel string) string {
	t.Helper()
	b, err := o.ReadFile(rel, 1<<20, nil)
	if err != nil {
		t.Fatalf("read of %s: %v", rel, err)
	}
	return string(b)
}

// A search of the index that finds its root's budget nearly full drops the
// texts neither it nor the search of the index before it kept or used;
// below nine tenths of the budget nothing is dropped.
func TestKeptTextEviction(t *testing.T) {
	c := contentCache{files: make(map[contentKey]*content), budget: 1 << 20}
	text := bytes.Repeat([]byte("x"), 1000)
	cost := len(text) + 3 + entryCost
	key := func(i int) contentKey { return contentKey{rel: fmt.Sprintf("%03d", i)} }
	c.keepTexts(nil, 10*cost) // gen 1
	for i := range 10 {
		c.put(key(i), fileID{}, text, 0, 1, false) // kept by greps without the index, after gen 1's
	}
	c.keepTexts(nil, 10*cost) // gen 2: the texts of gen 1 stay
	if len(c.files) != 10 {
		t.Fatalf("gen 2 kept %d texts, want 10", len(c.files))
	}
	c.files[key(3)].used.Store(2) // used by the search of gen 2
	c.keepTexts(nil, 10*cost)     // gen 3: only key 3 was used since gen 1
	if len(c.files) != 1 || c.files[key(3)] == nil {
		t.Fatalf("gen 3 kept %d texts (key 3: %v), want only key 3", len(c.files), c.files[key(3)] != nil)
	}
	for i := range 5 {
		c.put(key(10+i), fileID{}, text, 0, 3, false)
	}
	c.keepTexts(nil, 10*cost) // gen 4: 6 of 10 texts' room used, under nine tenths
	c.keepTexts(nil, 10*cost) // gen 5: the same
	if len(c.files) != 6 {
		t.Errorf("a budget six tenths full dropped texts: %d left", len(c.files))
	}
}
