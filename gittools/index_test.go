package gittools

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/google/go-cmp/cmp"
)

func TestIndexParserMatchesGoGit(t *testing.T) {
	f := historyFixture(t)
	f.write("new/deep/x.txt", "x\n")
	f.git("add", "new")
	f.git("update-index", "--chmod=+x", "README")
	data, err := os.ReadFile(filepath.Join(f.dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	fast, err := gitfmt.ParseIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := gitfmt.DecodeIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(slow.Entries, fast.Entries, cmp.AllowUnexported(gitfmt.IndexEntry{})); diff != "" {
		t.Errorf("entries (-go-git +ours):\n%s", diff)
	}
	if len(fast.CacheTree) == 0 {
		t.Error("no valid cache-tree nodes: the fixture should have some")
	}
	if _, ok := fast.CacheTree[""]; ok {
		t.Error("root cache-tree node valid after staging a change")
	}
}

// Find answers every name of indexes of each version git writes, conflicted ones included (the lowest
// stage), and nothing else; the names of a version-4 index (each stored as a change to the previous one)
// come out as those of the same index in version 2.
func TestIndexFindEveryVersion(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "base\n", "a-b.txt", "x\n", "a/x.txt", "x\n", "a/b/deep.txt", "d\n", "z.txt", "z\n")
	f.commit("base")
	f.git("checkout", "-q", "-b", "side")
	f.write("a.txt", "side\n")
	f.commit("side")
	f.git("checkout", "-q", "main")
	f.write("a.txt", "main\n")
	f.commit("main")
	if out, err := gitCmd(f, "merge", "-q", "side").CombinedOutput(); err == nil {
		t.Fatalf("the merge did not conflict: %s", out)
	}
	var names []string
	for _, version := range []string{"2", "3", "4"} {
		f.git("update-index", "--index-version", version)
		idx, err := readIndexAt(t, filepath.Join(f.dir, ".git"))
		if err != nil {
			t.Fatalf("version %s: %v", version, err)
		}
		var got []string
		for i, e := range idx.Entries {
			got = append(got, e.Name)
			j, ok := idx.Find(e.Name)
			if !ok || idx.Entries[j].Name != e.Name || j > i || j > 0 && idx.Entries[j-1].Name == e.Name {
				t.Errorf("version %s: Find(%q) = %d, %v; want the first of its entries (at or before %d)", version, e.Name, j, ok, i)
			}
		}
		if names == nil {
			names = got
		} else if diff := cmp.Diff(names, got); diff != "" {
			t.Errorf("version %s names (-version 2 +this):\n%s", version, diff)
		}
		if i, ok := idx.Find("a.txt"); !ok || idx.Entries[i].Stage != 1 {
			t.Errorf("version %s: Find of the conflicted a.txt gives stage %d, want its lowest, 1", version, idx.Entries[i].Stage)
		}
		for _, absent := range []string{"", "a", "a/b", "a.tx", "a.txt2", "zz", "0"} {
			if i, ok := idx.Find(absent); ok {
				t.Errorf("version %s: Find(%q) = %d, true; it is not in the index", version, absent, i)
			}
		}
	}
}

// git refuses an index whose entries are out of order, and so does grove, which searches them.
func TestIndexOutOfOrderRefused(t *testing.T) {
	for _, tt := range []struct {
		name    string
		entries []rawEntry
		wantErr string
	}{
		{"sorted", []rawEntry{{"a", 0}, {"b", 0}, {"b/c", 0}}, ""},
		{"stages in order", []rawEntry{{"a", 1}, {"a", 2}, {"a", 3}}, ""},
		{"names out of order", []rawEntry{{"b", 0}, {"a", 0}}, `out of order at "a"`},
		{"a directory's file before a sibling that sorts first", []rawEntry{{"a/b", 0}, {"a-b", 0}}, "out of order"},
		{"the same name twice", []rawEntry{{"a", 0}, {"a", 0}}, "out of order"},
		{"stages out of order", []rawEntry{{"a", 2}, {"a", 1}}, "out of order"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "index"), rawIndex(tt.entries), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := readIndexAt(t, dir)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

type rawEntry struct {
	name  string
	stage int
}

// rawIndex writes a version-2 index of entries in the order given (git's own tools would sort them).
func rawIndex(entries []rawEntry) []byte {
	b := []byte("DIRC\x00\x00\x00\x02")
	b = binary.BigEndian.AppendUint32(b, uint32(len(entries)))
	for _, e := range entries {
		start := len(b)
		b = append(b, make([]byte, 20)...)             // ctime, mtime, dev
		b = binary.BigEndian.AppendUint32(b, 1)        // ino
		b = binary.BigEndian.AppendUint32(b, 0o100644) // mode
		b = append(b, make([]byte, 12)...)             // uid, gid, size
		b = append(b, bytes.Repeat([]byte{0xab}, 20)...)
		b = binary.BigEndian.AppendUint16(b, uint16(e.stage<<12|len(e.name)))
		b = append(b, e.name...)
		b = append(b, make([]byte, 8-(len(b)-start)%8)...)
	}
	sum := sha1.Sum(b)
	return append(b, sum[:]...)
}
