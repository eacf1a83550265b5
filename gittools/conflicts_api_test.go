package gittools

import (
	"strings"
	"testing"

	"github.com/grove-mcp/grove/prompts"
	"github.com/grove-mcp/grove/scope"
)

var _ prompts.ConflictSource = (*Repos)(nil)

func TestConflictsDescribesEachHunk(t *testing.T) {
	f := branchFixture(t, map[string]string{"a.txt": "one\ntwo\nthree\n", "gone.txt": "g\n"},
		map[string]string{"a.txt": "one\nTWO topic\nthree\n", "gone.txt": "g changed\n"},
		map[string]string{"a.txt": "one\nTWO master\nthree\n", "gone.txt": ""})
	sc := scopeOf(t, f.root)
	r := New(Options{Scope: scope.Static(sc)})
	t.Cleanup(func() { r.Close() })
	if got, err := r.Conflicts(testCtx(t), sc, f.dir); err != nil || got != "" {
		t.Fatalf("before the merge: %q, %v", got, err)
	}
	f.ok("git_merge", map[string]any{"repo_path": f.dir, "revision": "topic"}, nil)
	got, err := r.Conflicts(testCtx(t), sc, f.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Operation in progress: merge. 2 conflicted path(s).",
		"=== a.txt: 1 conflicted hunk(s)", "<<<<<<< ours (HEAD)\nTWO master\n||||||| base\ntwo\n=======\nTWO topic\n>>>>>>> theirs\n",
		"=== gone.txt: deleted in ours (HEAD), changed in theirs."} {
		if !strings.Contains(got, want) {
			t.Errorf("conflicts description lacks %q:\n%s", want, got)
		}
	}
}
