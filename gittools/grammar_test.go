package gittools

import (
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/diff"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
)

// A single file, insertion or deletion reads in the singular, as git says
// it ("1 file changed, 1 insertion(+), 1 deletion(-)").
func TestTextGrammar(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n", "b.txt", "b\n")
	f.commit("initial")
	f.write("a.txt", "A\n")
	r, sc := f.repos()

	res, _, err := r.diffTool(testCtx(t), nil, sc, diff.DiffArgs{StatOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	gitStat := strings.TrimRight(f.git("diff", "--stat"), "\n")
	want := gitStat[strings.LastIndexByte(gitStat, '\n')+1:]
	if got := resultText(res); !strings.HasSuffix(got, want+"\n") {
		t.Errorf("stat %q, want it to end like git's %q", got, want)
	}

	if _, _, err := r.add(testCtx(t), nil, sc, writecmd.AddArgs{Files: []string{"a.txt"}}); err != nil {
		t.Fatal(err)
	}
	res, _, err = r.commitTool(testCtx(t), nil, sc, writecmd.CommitArgs{Message: "one file"})
	if err != nil {
		t.Fatal(err)
	}
	if got := resultText(res); !strings.HasSuffix(got, "\n1 file changed") {
		t.Errorf("commit %q, want it to end with 1 file changed", got)
	}
}
