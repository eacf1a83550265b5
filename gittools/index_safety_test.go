package gittools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/status"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// An index holding a path git would never write (a crafted repository) is
// refused, and nothing outside the worktree is looked at: status, the
// worktree diff and the fast stat path all stop at readIndex.
func TestCraftedIndexPathsRefused(t *testing.T) {
	for _, bad := range []string{"../outside.txt", "a/../../outside.txt", "/etc/passwd", "a//b", "./a", ".git/config", "sub/.GIT/hooks/x"} {
		t.Run(bad, func(t *testing.T) {
			f := newFixture(t)
			f.write("a.txt", "a\n")
			f.commit("one")
			name := filepath.Join(f.dir, ".git", "index")
			file, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			var idx index.Index
			err = index.NewDecoder(file).Decode(&idx)
			file.Close()
			if err != nil {
				t.Fatal(err)
			}
			crafted := *idx.Entries[0]
			crafted.Name = bad
			idx.Entries = append(idx.Entries, &crafted)
			out, err := os.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := index.NewEncoder(out).Encode(&idx); err != nil {
				t.Fatal(err)
			}
			out.Close()

			r, sc := f.repos()
			_, _, err = r.status(testCtx(t), nil, sc, status.StatusArgs{})
			if err == nil || !strings.Contains(err.Error(), "not a path git would write") {
				t.Errorf("status with index entry %q: %v, want it refused", bad, err)
			}
			if !gitfmt.ValidPath("a/b.txt") || !gitfmt.ValidPath(".gitignore") || !gitfmt.ValidPath("x/.github/y") {
				t.Error("validRepoPath refuses ordinary paths")
			}
		})
	}
}
