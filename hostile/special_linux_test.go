package hostile

import (
	"net"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Same class as items 7-8: files that are not regular files, under a root:
// a FIFO nobody writes (opening it for reading blocks), a socket, and, when
// the suite may create devices, character devices like /dev/zero and
// /dev/urandom (endless). Every call that meets one answers within the
// bound, and grove's memory stays bounded.
func TestSpecialFilesUnderRoot(t *testing.T) {
	t.Parallel()
	root := gitRoot(t)
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(root, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	specials := []string{"fifo", "sock"}
	for name, dev := range map[string]uint64{"zero": unix.Mkdev(1, 5), "urandom": unix.Mkdev(1, 9)} {
		if err := unix.Mknod(filepath.Join(root, name), unix.S_IFCHR|0o644, int(dev)); err != nil {
			t.Logf("no character devices: %v", err)
			continue
		}
		specials = append(specials, name)
	}

	var cases []toolCase
	var uris []string
	for _, name := range specials {
		uris = append(uris, fileURI(filepath.Join(root, name)))
		cases = append(cases,
			toolCase{"read_file", map[string]any{"path": name}},
			toolCase{"read_files", map[string]any{"paths": []string{name, "a.txt"}}},
			toolCase{"file_info", map[string]any{"path": name}},
			toolCase{"grep", map[string]any{"pattern": "x", "path": name}},
			toolCase{"edit_file", map[string]any{"path": name, "edits": []map[string]string{{"old_text": "a", "new_text": "b"}}}},
			toolCase{"git_add", map[string]any{"files": []string{name}}},
			toolCase{"git_blame", map[string]any{"path": name}},
		)
	}
	cases = append(cases,
		toolCase{"grep", map[string]any{"pattern": "x"}},
		toolCase{"list_directory", map[string]any{"path": "."}},
		toolCase{"directory_tree", map[string]any{"path": "."}},
		toolCase{"search_files", map[string]any{"path": ".", "pattern": "**"}},
		toolCase{"git_status", map[string]any{}},
		toolCase{"git_diff", map[string]any{}},
		toolCase{"git_add", map[string]any{"files": []string{"."}}},
	)
	type check struct {
		name string
		call func(s *session) []byte // the answer
	}
	var checks []check
	for _, c := range cases {
		checks = append(checks, check{c.String(), func(s *session) []byte { return s.callTool(c.tool, c.args).msg.Raw }})
	}
	for _, uri := range uris {
		for _, method := range []string{"resources/read", "resources/subscribe"} {
			checks = append(checks, check{method + " " + filepath.Base(uri), func(s *session) []byte {
				return s.call(method, map[string]any{"uri": uri}).Raw
			}})
		}
	}
	for _, name := range specials {
		checks = append(checks, check{"review_file " + name, func(s *session) []byte {
			return s.call("prompts/get", map[string]any{"name": "review_file", "arguments": map[string]string{"path": name}}).Raw
		}})
	}
	checks = append(checks,
		check{"resources/list", func(s *session) []byte { return s.call("resources/list", map[string]any{}).Raw }},
		check{"review_changes", func(s *session) []byte {
			return s.call("prompts/get", map[string]any{"name": "review_changes", "arguments": map[string]string{}}).Raw
		}})
	inSessions(t, func(t *testing.T) *session { return legacy(t, root) }, checks,
		func(c check) string { return c.name },
		func(t *testing.T, s *session, c check) {
			if answer := c.call(s); len(answer) > 16<<20 {
				t.Errorf("answered %d bytes", len(answer))
			}
			s.ping()
			s.checkPeakRSS(c.name)
		})
}
