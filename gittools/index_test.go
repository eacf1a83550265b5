package gittools

import (
	"os"
	"path/filepath"
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
