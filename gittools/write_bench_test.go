package gittools

import (
	"context"
	"fmt"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/writecmd"

	"github.com/go-git/go-git/v5"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// BenchmarkGitAddAllUnchanged measures `git_add .` over 5,000 tracked, unchanged files in 50 directories:
// the stat data in the index must spare reading them again.
func BenchmarkGitAddAllUnchanged(b *testing.B) {
	dir, err := realDir(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv("HOME", b.TempDir())
	if _, err := git.PlainInit(dir, false); err != nil {
		b.Fatal(err)
	}
	f := &writeFixture{dir: dir}
	files := map[string]string{}
	for i := range 5000 {
		files[fmt.Sprintf("d%02d/f%04d.txt", i%50, i)] = fmt.Sprintf("content %d\n", i)
	}
	f.writeB(b, files)
	set, err := roots.NewSet([]string{dir}, nil)
	if err != nil {
		b.Fatal(err)
	}
	sc := set.Scope()
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	ctx := context.Background()
	in := writecmd.AddArgs{RepoPath: dir, Files: []string{"."}}
	if _, out, err := r.add(ctx, nil, sc, in); err != nil || len(out.Staged) != len(files) {
		b.Fatalf("first add: %d staged, %v", len(out.Staged), err)
	}
	for b.Loop() {
		if _, out, err := r.add(ctx, nil, sc, in); err != nil || len(out.Staged) != 0 {
			b.Fatalf("re-add: %d staged, %v", len(out.Staged), err)
		}
	}
}
