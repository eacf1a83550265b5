package fsres

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Counts of one read in the singular: "1 path … matches", "1 entry",
// "1 line", and plural otherwise.
func TestTextGrammar(t *testing.T) {
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	must(t, os.WriteFile(filepath.Join(root, "one.txt"), []byte("hello\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, ".gitignore"), []byte("skip\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "skip"), []byte("x\n"), 0o644))
	cs := connect(t, newFiles(t, false, root), modern)
	for _, tt := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"search_files", map[string]any{"pattern": "*.txt"}, "1 path under " + root + " matches *.txt\n"},
		{"search_files", map[string]any{"pattern": "*"}, "2 paths under " + root + " match *\n"},
		{"grep", map[string]any{"pattern": "hello"}, "1 matching line in 1 file under " + root + " (2 files searched)\n"},
		{"grep", map[string]any{"pattern": "hello", "path": "one.txt"}, "(1 file searched)\n"},
		{"grep", map[string]any{"pattern": "[a-z]", "max_results": 1}, "(cut at 1 matching line;"},
		{"list_directory", map[string]any{}, root + ": 2 entries\n"},
		{"list_directory", map[string]any{}, "(1 ignored entry not shown)\n"},
		{"directory_tree", map[string]any{"max_entries": 1}, "(cut at 1 entry;"},
		{"read_file", map[string]any{"path": "one.txt"}, filepath.Join(root, "one.txt") + ": 1 line\n"},
		{"file_info", map[string]any{"path": "one.txt"}, ", text, 1 line"},
	} {
		text := toolOK(t, cs, tt.tool, tt.args, nil)
		if !strings.Contains(text, tt.want) {
			t.Errorf("%s %v: %q, want it to contain %q", tt.tool, tt.args, text, tt.want)
		}
	}
	if msg := toolErr(t, cs, "read_file", map[string]any{"path": "one.txt", "start_line": 5}); !strings.Contains(msg, "(the file has 1 line)") {
		t.Errorf("read_file past the end: %q, want it to say the file has 1 line", msg)
	}
}
