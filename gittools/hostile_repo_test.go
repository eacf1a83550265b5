package gittools

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/status"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callWithin calls a tool and fails the test when no answer comes within d: a tool that spins or waits on a
// lock forever is a failure here, not a hung test run.
func callWithin(t *testing.T, cs *mcp.ClientSession, d time.Duration, name string, args map[string]any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: no answer within %v: %v", name, args, d, err)
	}
	return resultText(res), res.IsError
}

// craftIndex adds entries named names to the repository's index, copying the first entry's other fields, the
// way a crafted repository could arrive.
func craftIndex(t *testing.T, dir string, names ...string) {
	t.Helper()
	name := filepath.Join(dir, ".git", "index")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var idx index.Index
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(&idx); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		e := *idx.Entries[0]
		e.Name = n
		idx.Entries = append(idx.Entries, &e)
	}
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(&idx); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Every loader of the index, the read tools' and the write tools', refuses an entry git would never write, and
// gives the repository back: issue 11 item 7 (an absolute entry made git_reset spin forever holding the lock).
func TestCraftedIndexRefusedByEveryLoader(t *testing.T) {
	calls := []struct {
		name string
		args map[string]any
	}{
		{"git_status", map[string]any{}},
		{"git_diff", map[string]any{}},
		{"git_diff", map[string]any{"staged": true}},
		{"git_diff", map[string]any{"target": "HEAD"}},
		{"git_reset", map[string]any{}},
		{"git_reset", map[string]any{"files": []string{"a.txt"}}},
		{"git_checkout", map[string]any{"branch": "other"}},
		{"git_commit", map[string]any{"message": "crafted"}},
		{"git_add", map[string]any{"files": []string{"a.txt"}}},
	}
	for _, bad := range []string{
		"/etc/hostname", "../outside/secret.txt", "a/../../outside.txt", "a//b", "./a", "a/.", "a/",
		".git/config", "sub/.GIT/hooks/x", ".git./hooks/x", ".git /x", "GIT~1/config", ".git::$INDEX_ALLOCATION/x",
		".g\u200cit/config", `a\..\..\x`, `sub\.git\hooks\x`, strings.Repeat("d/", 2100) + "x",
	} {
		t.Run(strings.ReplaceAll(bad[:min(len(bad), 40)], "/", "|"), func(t *testing.T) {
			f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
			f.git("branch", "other")
			craftIndex(t, f.dir, bad)
			for _, c := range calls {
				text, isErr := callWithin(t, f.cs, 20*time.Second, c.name, c.args)
				if !isErr || !strings.Contains(text, ".git/index refused") || !strings.Contains(text, "not a path git would write") {
					t.Errorf("%s %v with index entry %q: %q (isError %v), want the index refused", c.name, c.args, bad, text, isErr)
				}
			}
			if text, isErr := callWithin(t, f.cs, 20*time.Second, "git_branch", map[string]any{}); isErr {
				t.Errorf("git_branch after the refusals: %s; the repository should be usable", text)
			}
			if _, err := os.Lstat(filepath.Join(filepath.Dir(f.dir), "outside")); err == nil {
				t.Error("something was created outside the worktree")
			}
		})
	}
}

func TestValidRepoPath(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"a.txt", true}, {"dir/sub/file.go", true}, {".gitignore", true}, {".github/workflows/ci.yml", true},
		{"x/.gitmodules", true}, {"git", true}, {".gitx", true}, {"a b/c d", true}, {`back\slash`, true},
		{"~", true}, {"üñï/çødé", true}, {"..a", true}, {"a..", true}, {"...", true},
		{"", false}, {"/abs", false}, {"a/", false}, {"a//b", false}, {".", false}, {"..", false}, {"a/./b", false},
		{"a/../b", false}, {"x\x00y", false}, {".git", false}, {"a/.Git/b", false}, {".GIT.", false}, {".git  ", false},
		{"git~1", false}, {"Git~1/x", false}, {".git:stream", false}, {".gi\u200dt", false}, {"\ufeff.git", false},
		{`a\..\b`, false}, {`a\.git\b`, false}, {`a\`, false}, {strings.Repeat("a", gitfmt.MaxRepoPath+1), false},
	} {
		if got := gitfmt.ValidPath(tt.name); got != tt.want {
			t.Errorf("validRepoPath(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// parentDirs ends whatever the path holds; a loop over path.Dir until "." never does for "/x".
func TestParentDirsEnds(t *testing.T) {
	for _, tt := range []struct {
		p    string
		want []string
	}{
		{"a/b/c", []string{"a/b", "a"}}, {"a", nil}, {"", nil}, {"/etc/hostname", []string{"/etc"}}, {"/", nil},
		{"//", nil}, {"../x", []string{".."}}, {"a//b", []string{"a"}}, {"a/b/", []string{"a/b", "a"}},
	} {
		var got []string
		done := make(chan struct{})
		go func() {
			defer close(done)
			for d := range gitfmt.ParentDirs(tt.p) {
				got = append(got, d)
			}
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("parentDirs(%q) does not end", tt.p)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("parentDirs(%q) mismatch (-want +got):\n%s", tt.p, diff)
		}
	}
}

// storeTree writes a tree with the given entries into the repository and returns its hash.
func storeTree(t *testing.T, repo *git.Repository, entries ...object.TreeEntry) plumbing.Hash {
	t.Helper()
	sort.Sort(object.TreeEntrySorter(entries))
	obj := repo.Storer.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(obj); err != nil {
		t.Fatal(err)
	}
	h, err := repo.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// storeBlob writes a blob and returns its hash.
func storeBlob(t *testing.T, repo *git.Repository, content string) plumbing.Hash {
	t.Helper()
	obj := repo.Storer.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	w, _ := obj.Writer()
	w.Write([]byte(content))
	w.Close()
	h, err := repo.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// storeCommit writes a commit of tree on top of HEAD and points branch at it.
func storeCommit(t *testing.T, repo *git.Repository, tree plumbing.Hash, branch string) plumbing.Hash {
	t.Helper()
	head, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	sig := object.Signature{Name: "Crafter", Email: "c@example.com", When: time.Unix(1700000100, 0)}
	c := &object.Commit{Author: sig, Committer: sig, Message: "crafted\n", TreeHash: tree, ParentHashes: []plumbing.Hash{head.Hash()}}
	obj := repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		t.Fatal(err)
	}
	h, err := repo.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(branch), h)); err != nil {
		t.Fatal(err)
	}
	return h
}

// A tree entry git would never write (.git, .., a name with a slash) is refused wherever trees are read:
// checking out such a branch would otherwise write .git/hooks/post-checkout through the worktree's root.
func TestCraftedTreeRefused(t *testing.T) {
	for _, bad := range []string{".git", ".GIT", "..", "git~1", ".git.", "a/b", ".", `..\x`} {
		t.Run(bad, func(t *testing.T) {
			f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
			repo, err := git.PlainOpen(f.dir)
			if err != nil {
				t.Fatal(err)
			}
			hook := storeBlob(t, repo, "#!/bin/sh\necho pwned\n")
			hooks := storeTree(t, repo, object.TreeEntry{Name: "post-checkout", Mode: filemode.Executable, Hash: hook})
			dir := storeTree(t, repo, object.TreeEntry{Name: "hooks", Mode: filemode.Dir, Hash: hooks})
			a := storeBlob(t, repo, "a\n")
			root := storeTree(t, repo, object.TreeEntry{Name: bad, Mode: filemode.Dir, Hash: dir},
				object.TreeEntry{Name: "a.txt", Mode: filemode.Regular, Hash: a})
			evil := storeCommit(t, repo, root, "evil")
			for _, c := range []struct {
				name string
				args map[string]any
			}{
				{"git_checkout", map[string]any{"branch": "evil"}},
				{"git_show", map[string]any{"revision": "evil"}},
				{"git_show", map[string]any{"revision": "evil", "path": "."}},
				{"git_diff", map[string]any{"target": "HEAD..evil"}},
				{"git_diff", map[string]any{"target": "evil"}},
			} {
				text, isErr := callWithin(t, f.cs, 20*time.Second, c.name, c.args)
				if !isErr || !strings.Contains(text, "not a path git would write") {
					t.Errorf("%s %v: %q (isError %v), want the tree refused", c.name, c.args, text, isErr)
				}
			}
			if _, err := os.Lstat(filepath.Join(f.dir, ".git", "hooks", "post-checkout")); err == nil {
				t.Error("git_checkout wrote .git/hooks/post-checkout from a crafted tree")
			}
			// With HEAD on the crafted commit, the tools that compare HEAD's tree refuse it too.
			f.git("update-ref", "refs/heads/master", evil.String())
			for _, name := range []string{"git_reset", "git_status"} {
				text, isErr := callWithin(t, f.cs, 20*time.Second, name, map[string]any{})
				if !isErr || !strings.Contains(text, "not a path git would write") {
					t.Errorf("%s on a crafted HEAD: %q (isError %v), want the tree refused", name, text, isErr)
				}
			}
		})
	}
}

// Trees whose subtrees repeat describe a million files in a few KB (a billion with 1,000 entries a tree):
// every walk stops at maxTreeEntries.
func TestTreeBombStopsAtItsBudget(t *testing.T) {
	defer func(n int) { repo.MaxTreeEntries = n }(repo.MaxTreeEntries)
	repo.MaxTreeEntries = 20_000
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	repo, err := git.PlainOpen(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	tree := storeTree(t, repo, object.TreeEntry{Name: "f", Mode: filemode.Regular, Hash: storeBlob(t, repo, "x")})
	for range 3 {
		es := make([]object.TreeEntry, 100)
		for i := range es {
			es[i] = object.TreeEntry{Name: "d" + strings.Repeat("0", 4-len(strconv.Itoa(i))) + strconv.Itoa(i), Mode: filemode.Dir, Hash: tree}
		}
		tree = storeTree(t, repo, es...)
	}
	storeCommit(t, repo, tree, "bomb")
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"git_show", map[string]any{"revision": "bomb"}},
		{"git_diff", map[string]any{"target": "bomb", "stat_only": true}},
		{"git_checkout", map[string]any{"branch": "bomb"}},
	} {
		text, isErr := callWithin(t, f.cs, 60*time.Second, c.name, c.args)
		if !isErr || !strings.Contains(text, "more than 20000 entries") {
			t.Errorf("%s %v: %.200q (isError %v), want the walk stopped at its budget", c.name, c.args, text, isErr)
		}
	}
}

// A cache-tree node named ".." (or anything git would not write) refuses the index: the cache-tree maps
// directories to index ranges and must not name a path outside them.
func TestCraftedCacheTreeRefused(t *testing.T) {
	f := newFixture(t)
	f.write("ab/x.txt", "x\n", "c.txt", "c\n")
	f.commit("one")
	name := filepath.Join(f.dir, ".git", "index")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte("TREE"))
	j := bytes.Index(data[i:], []byte("ab\x00"))
	if i < 0 || j < 0 {
		t.Fatal("the index has no cache-tree node for ab")
	}
	copy(data[i+j:], "..")
	sum := sha1.Sum(data[:len(data)-20])
	copy(data[len(data)-20:], sum[:])
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, sc := f.repos()
	if _, _, err := r.status(testCtx(t), nil, sc, status.StatusArgs{}); err == nil || !strings.Contains(err.Error(), "not a path git would write") {
		t.Errorf("status with a cache-tree node \"..\": %v, want the index refused", err)
	}
	if _, err := gitfmt.ParseWritableIndex(data, "index"); err == nil {
		t.Error("parseChecked (the write tools' check too) accepted the crafted cache-tree")
	}
}

// Version 4 indexes are parsed by grove, with the same result as go-git's decoder.
func TestIndexV4ParsedLikeGoGit(t *testing.T) {
	f := historyFixture(t)
	f.write("new/deep/x.txt", "x\n", "new/deep/y.txt", "y\n", "new/z.txt", "z\n")
	f.git("add", "new")
	f.git("update-index", "--index-version", "4")
	data, err := os.ReadFile(filepath.Join(f.dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if v := binary.BigEndian.Uint32(data[4:]); v != 4 {
		t.Fatalf("index version %d, want 4", v)
	}
	fast, err := gitfmt.ParseIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	var gi index.Index
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(&gi); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range gi.Entries {
		names = append(names, e.Name)
	}
	var got []string
	for _, e := range fast.Entries {
		got = append(got, e.Name)
	}
	if diff := cmp.Diff(names, got); diff != "" {
		t.Errorf("names (-go-git +ours):\n%s", diff)
	}
}

// v4Index builds a version-4 index of n entries: each keeps the previous name whole and appends grow bytes,
// the first first bytes.
func v4Index(n, first, grow int) []byte {
	var b bytes.Buffer
	b.WriteString("DIRC")
	binary.Write(&b, binary.BigEndian, uint32(4))
	binary.Write(&b, binary.BigEndian, uint32(n))
	for i := range n {
		fixed := make([]byte, gitfmt.IndexEntryFixed)
		binary.BigEndian.PutUint32(fixed[24:], 0o100644)
		b.Write(fixed)
		b.WriteByte(0) // strip nothing
		if i == 0 {
			b.WriteString(strings.Repeat("a", first))
		} else {
			b.WriteString(strings.Repeat("a", grow))
		}
		b.WriteByte(0)
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

// Prefix compression cannot expand a small index into gigabytes of names: names stop at maxRepoPath, and
// all names together at maxIndexNames.
func TestIndexV4NamesBounded(t *testing.T) {
	for _, tt := range []struct {
		name    string
		data    []byte
		wantErr string
	}{
		{"one name past PATH_MAX", v4Index(50, 100, 100), "not a path git would write"},
		{"names past the budget", v4Index(40000, gitfmt.MaxRepoPath, 0), "entry names pass 128 MiB"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := gitfmt.ParseWritableIndex(tt.data, "index")
			if err == nil {
				t.Fatal("accepted")
			}
			if tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}
