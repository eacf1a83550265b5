package gittools

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFirstStatusAfterWarmIsIncremental: when the server opens a root's repository at start-up (Warm),
// the status is computed ahead, so the first git_status re-examines only what changed since, and still
// agrees with git about a change made in between.
func TestFirstStatusAfterWarmIsIncremental(t *testing.T) {
	f := layoutBase(t)
	f.write("a.txt", "edited before start-up\n", "untracked.txt", "u\n")
	r, sc := watchFixture(t, f)
	r.Warm(sc, f.dir)
	r.wg.Wait() // the warm-up and its pre-scan
	if w := warmOf(t, r); !w.Valid() {
		t.Fatal("the pre-scan left no state to keep")
	}
	f.write("docs/guide.md", "edited after start-up\n")
	got := warmLines(t, r, sc)
	if warmOf(t, r).Full() {
		t.Error("the first git_status scanned the whole worktree again")
	}
	if diff := cmp.Diff(gitStatus(f), got); diff != "" {
		t.Errorf("first status mismatch (-git +grove):\n%s", diff)
	}
}
