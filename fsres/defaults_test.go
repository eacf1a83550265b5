package fsres

import (
	"strings"
	"testing"

	"github.com/grove-mcp/grove/roots"
)

// list_directory, directory_tree, search_files and grep all default their
// path to the only root, and with several roots all refuse alike, naming the
// roots.
func TestPathDefaultsToTheOnlyRoot(t *testing.T) {
	root, _ := testTree(t)
	other := t.TempDir()
	one := connect(t, newFiles(t, false, root), modern)
	two := connect(t, newFiles(t, false, root, other), modern)
	for _, tt := range []struct {
		tool string
		args map[string]any
	}{
		{"list_directory", map[string]any{}},
		{"directory_tree", map[string]any{"max_depth": 1}},
		{"search_files", map[string]any{"pattern": "*.txt"}},
		{"grep", map[string]any{"pattern": "hello"}},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			var got struct {
				Path string `json:"path"`
			}
			toolOK(t, one, tt.tool, tt.args, &got)
			if got.Path != root {
				t.Errorf("path %q, want the only root %q", got.Path, root)
			}
			msg := toolErr(t, two, tt.tool, tt.args)
			for _, want := range []string{"path is needed: grove has 2 roots", roots.URI(root), roots.URI(other)} {
				if !strings.Contains(msg, want) {
					t.Errorf("with two roots: %q, want it to say %q", msg, want)
				}
			}
		})
	}
}
