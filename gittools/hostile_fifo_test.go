//go:build unix

package gittools

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A repository file replaced by a FIFO is refused, never opened for a read that waits forever holding the
// repository's lock: the index, a ref, the config, a loose object, the commit-graph.
func TestRepositoryFIFOsDoNotHang(t *testing.T) {
	for _, tt := range []struct {
		file string // relative to .git; "object:PATH" is PATH's loose blob at HEAD
		name string
		args map[string]any
		ok   bool // the tool works without the file
	}{
		{"index", "git_status", map[string]any{}, false},
		{"index", "git_add", map[string]any{"files": []string{"a.txt"}}, false},
		{"refs/heads/fifo", "git_branch", map[string]any{}, false},
		{"config", "git_status", map[string]any{}, false},
		{"object:a.txt", "git_show", map[string]any{"revision": "HEAD", "path": "a.txt"}, false},
		{"objects/info/commit-graph", "git_log", map[string]any{}, true},
	} {
		t.Run(tt.file+" "+tt.name, func(t *testing.T) {
			f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
			p := filepath.Join(f.dir, ".git", filepath.FromSlash(tt.file))
			if path, ok := strings.CutPrefix(tt.file, "object:"); ok {
				h := f.git("rev-parse", "HEAD:"+path)
				p = filepath.Join(f.dir, ".git", "objects", h[:2], h[2:])
			}
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			text, isErr := callWithin(t, f.cs, 20*time.Second, tt.name, tt.args)
			if isErr == tt.ok {
				t.Errorf("%s with .git/%s a FIFO: %q (isError %v), want isError %v", tt.name, tt.file, text, isErr, !tt.ok)
			}
		})
	}
}
