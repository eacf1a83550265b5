package repo

import (
	"bufio"
	"bytes"
	"github.com/grove-mcp/grove/roots"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/gittest"
)

// catObjects lists every object with git cat-file: "type content" by hash.
func catObjects(t *testing.T, f *gittest.Fixture) map[string]string {
	t.Helper()
	out, err := f.Cmd("cat-file", "--batch-all-objects", "--batch").Output()
	if err != nil {
		t.Fatal(err)
	}
	objs := map[string]string{}
	br := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF {
			break
		}
		fields := strings.Fields(line)
		size, _ := strconv.Atoi(fields[2])
		data := make([]byte, size+1)
		if _, err := io.ReadFull(br, data); err != nil {
			t.Fatal(err)
		}
		objs[fields[0]] = fields[1] + " " + string(data[:size])
	}
	return objs
}

// readAll reads every object of want through the repository's store and counts those the pack reader gave.
func readAll(t *testing.T, rp *Repo, want map[string]string) (map[string]string, int) {
	t.Helper()
	got, packed := map[string]string{}, 0
	for h := range want {
		o, err := rp.Git.Storer.EncodedObject(plumbing.AnyObject, plumbing.NewHash(h))
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		if _, ok := o.(*packedObj); ok {
			packed++
		}
		data, err := ReadPrefix(o, o.Size())
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		got[h] = o.Type().String() + " " + string(data)
	}
	return got, packed
}

// TestPackedObjectsThroughPackread: objects in packs come from grove's pack reader, loose ones from the
// loose reader, all as git has them; after a repack replaces the pack, Refresh reopens the storage and
// the new pack is read.
func TestPackedObjectsThroughPackread(t *testing.T) {
	f := gittest.New(t)
	for i := range 8 {
		f.Write("a.txt", strings.Repeat("line\n", 50)+strconv.Itoa(i)+"\n", "d/b.txt", strconv.Itoa(i*i)+"\n")
		f.Commit("c" + strconv.Itoa(i))
	}
	f.Git("repack", "-adq")
	f.Write("loose.txt", "loose\n")
	f.Commit("loose")
	gitDir := filepath.Join(f.Dir, ".git")
	set, err := roots.NewSet([]string{f.Dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := set.Scope()
	loc, err := sc.Resolve(f.Dir)
	if err != nil {
		t.Fatal(err)
	}
	rp := &Repo{Worktree: f.Dir, GitDir: gitDir, CommonDir: gitDir, Loc: loc, Scope: sc}
	if err := rp.OpenStorage(); err != nil {
		t.Fatal(err)
	}
	defer rp.Store.Close()
	if err := rp.Refresh(); err != nil {
		t.Fatal(err)
	}
	want := catObjects(t, f)
	got, packed := readAll(t, rp, want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("objects differ from git (-git +grove):\n%s", diff)
	}
	loose := len(strings.Fields(f.Git("rev-list", "--objects", "HEAD~1..HEAD"))) / 2 // commit, tree, blob
	if packed == 0 || packed > len(want)-loose {
		t.Errorf("%d of %d objects from the pack reader; %d are loose", packed, len(want), loose)
	}

	f.Git("repack", "-adq") // everything in one new pack; the old one is deleted
	if err := rp.Refresh(); err != nil {
		t.Fatal(err)
	}
	got, packed = readAll(t, rp, want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("after the repack, objects differ from git (-git +grove):\n%s", diff)
	}
	if packed != len(want) {
		t.Errorf("after the repack, %d of %d objects from the pack reader", packed, len(want))
	}
	raw, err := rp.RawObject(plumbing.TreeObject, plumbing.NewHash(strings.TrimSpace(f.Git("rev-parse", "HEAD^{tree}"))))
	if err != nil || !bytes.Contains(raw, []byte("loose.txt")) {
		t.Errorf("RawObject(HEAD's tree) = %q, %v", raw, err)
	}
}
