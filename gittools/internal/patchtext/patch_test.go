package patchtext

import (
	"bytes"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/google/go-cmp/cmp"
)

// TestGitlinkPatch checks the Subproject commit lines against what git 2.39 wrote for the same changes (a
// submodule whose HEAD moved, then also with modified content; one with modified content only, which gets
// no index line).
func TestGitlinkPatch(t *testing.T) {
	old := plumbing.NewHash("ac0caca6e02a4199b0c9c3ee49874ffc7ad92541")
	moved := plumbing.NewHash("08faacc9dfb5785ba7f25dca8179b576ba361ae4")
	for _, tt := range []struct {
		name string
		to   Side
		want string
	}{
		{"new commits", Side{Path: "sub", Mode: filemode.Submodule, Hash: moved},
			"diff --git a/sub b/sub\nindex ac0caca..08faacc 160000\n--- a/sub\n+++ b/sub\n@@ -1 +1 @@\n-Subproject commit ac0caca6e02a4199b0c9c3ee49874ffc7ad92541\n+Subproject commit 08faacc9dfb5785ba7f25dca8179b576ba361ae4\n"},
		{"new commits, dirty", Side{Path: "sub", Mode: filemode.Submodule, Hash: moved, Dirty: true},
			"diff --git a/sub b/sub\nindex ac0caca..08faacc 160000\n--- a/sub\n+++ b/sub\n@@ -1 +1 @@\n-Subproject commit ac0caca6e02a4199b0c9c3ee49874ffc7ad92541\n+Subproject commit 08faacc9dfb5785ba7f25dca8179b576ba361ae4-dirty\n"},
		{"dirty only", Side{Path: "sub", Mode: filemode.Submodule, Hash: old, Dirty: true},
			"diff --git a/sub b/sub\n--- a/sub\n+++ b/sub\n@@ -1 +1 @@\n-Subproject commit ac0caca6e02a4199b0c9c3ee49874ffc7ad92541\n+Subproject commit ac0caca6e02a4199b0c9c3ee49874ffc7ad92541-dirty\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			st := WriteFilePatch(&b, FilePatch{From: Side{Path: "sub", Mode: filemode.Submodule, Hash: old}, To: tt.to}, Format{Context: 3})
			if d := cmp.Diff(tt.want, b.String()); d != "" {
				t.Errorf("patch mismatch (-git +ours):\n%s", d)
			}
			if st.Added != 1 || st.Deleted != 1 {
				t.Errorf("stat %+v, want +1 -1", st)
			}
		})
	}
}
