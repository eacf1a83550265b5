package gittools

import (
	"os"
	"path/filepath"
	"testing"

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
	fast, err := parseIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := decodeIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(slow.entries, fast.entries, cmp.AllowUnexported(indexEntry{})); diff != "" {
		t.Errorf("entries (-go-git +ours):\n%s", diff)
	}
	if len(fast.cacheTree) == 0 {
		t.Error("no valid cache-tree nodes: the fixture should have some")
	}
	if _, ok := fast.cacheTree[""]; ok {
		t.Error("root cache-tree node valid after staging a change")
	}
}
