package hostile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// watchTimeout bounds how long a file change takes to become a
// notifications/resources/updated.
const watchTimeout = 10 * time.Second

// touch rewrites a file with new content, so that every watcher sees it.
func touch(t *testing.T, p string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(time.Now().String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
}

// updatedURI reports whether m is a resources/updated notification for uri.
func updatedURI(uri string) func(*message) bool {
	return func(m *message) bool {
		var p struct {
			URI string `json:"uri"`
		}
		return json.Unmarshal(m.Params, &p) == nil && p.URI == uri
	}
}

// Issue 11 item 9 and contract S1: resources/subscribe and unsubscribe
// resolve a URI exactly as resources/read does, so a symlink leaving the
// roots (to a file, to a directory, dangling) gets the same not-found error;
// and no notification reveals a change outside the roots. A subscription to
// a file inside the root is the control that notifications flow at all.
func TestSubscribeThroughLinksLeavingRoots(t *testing.T) {
	t.Parallel()
	top := tempRoot(t)
	root, outside := filepath.Join(top, "root"), filepath.Join(top, "outside")
	writeFiles(t, root, map[string]string{"a.txt": "alpha\n"})
	writeFiles(t, outside, map[string]string{"secret.txt": "secret\n", "dir/x.txt": "x\n"})
	symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(root, "abs"))
	symlink(t, "../outside/secret.txt", filepath.Join(root, "rel"))
	symlink(t, filepath.Join(outside, "nope.txt"), filepath.Join(root, "dangling"))
	symlink(t, outside, filepath.Join(root, "dlink"))
	symlink(t, "abs", filepath.Join(root, "chain"))
	symlink(t, "loop", filepath.Join(root, "loop"))

	s := legacy(t, root)
	var links []string
	for _, name := range []string{"abs", "rel", "dangling", "dlink", "dlink/secret.txt", "dlink/dir/x.txt", "dlink/dir", "dlink/nope.txt", "chain", "loop"} {
		uri := fileURI(root) + "/" + name
		links = append(links, uri)
		read := s.call("resources/read", map[string]any{"uri": uri})
		if read.Error == nil || read.Error.Code != -32002 {
			t.Errorf("resources/read %s: %.300s, want -32002", name, read.Raw)
			continue
		}
		for _, method := range []string{"resources/subscribe", "resources/unsubscribe"} {
			if m := s.call(method, map[string]any{"uri": uri}); m.Error == nil || m.Error.Code != read.Error.Code {
				t.Errorf("%s %s: %.300s, want %d as resources/read answers", method, name, m.Raw, read.Error.Code)
			}
		}
	}
	a := fileURI(root) + "/a.txt"
	if m := s.call("resources/subscribe", map[string]any{"uri": a}); m.Error != nil {
		t.Fatalf("resources/subscribe a.txt: %.300s", m.Raw)
	}
	for range 2 {
		touch(t, filepath.Join(outside, "secret.txt"))
		touch(t, filepath.Join(outside, "nope.txt"))
		touch(t, filepath.Join(outside, "dir", "x.txt"))
		touch(t, filepath.Join(root, "a.txt"))
		s.awaitNote("notifications/resources/updated", updatedURI(a), watchTimeout)
		os.Remove(filepath.Join(outside, "nope.txt"))
	}
	s.ping()
	for _, m := range s.notes {
		if m.Method == "notifications/resources/updated" && !updatedURI(a)(m) {
			t.Errorf("a notification about something outside the root: %.300s", m.Raw)
		}
		if strings.Contains(string(m.Raw), outside) {
			t.Errorf("a notification names a path outside the root: %.300s", m.Raw)
		}
	}
}

// Issue 11 item 10 and contracts S2-S3: when the client's roots shrink,
// grove sends notifications/resources/list_changed; a subscription outside
// the new roots goes dormant (no notifications, and at level debug a
// notifications/message says so) and wakes when its root returns.
func TestRootsChange(t *testing.T) {
	t.Parallel()
	root := tempRoot(t)
	writeFiles(t, root, map[string]string{"A/x.txt": "x\n", "B/y.txt": "y\n"})
	x, y := filepath.Join(root, "A", "x.txt"), filepath.Join(root, "B", "y.txt")
	xURI, yURI := fileURI(x), fileURI(y)

	s := start(t, "--root", root)
	s.clientRoots = []string{fileURI(root)}
	s.initialize(legacyVersion, `{"roots":{"listChanged":true}}`)
	s.awaitServerRequest("roots/list", callTimeout)
	if m := s.call("logging/setLevel", map[string]any{"level": "debug"}); m.Error != nil {
		t.Fatalf("logging/setLevel: %.300s", m.Raw)
	}
	for _, uri := range []string{xURI, yURI} {
		if m := s.call("resources/subscribe", map[string]any{"uri": uri}); m.Error != nil {
			t.Fatalf("resources/subscribe %s: %.300s", uri, m.Raw)
		}
	}

	s.clientRoots = []string{fileURI(filepath.Join(root, "B"))}
	s.notify("notifications/roots/list_changed", nil)
	s.awaitServerRequest("roots/list", callTimeout)
	s.awaitNote("notifications/resources/list_changed", nil, callTimeout)
	if m := s.call("resources/read", map[string]any{"uri": xURI}); m.Error == nil {
		t.Errorf("resources/read of a file outside the new roots: %.300s", m.Raw)
	}
	notesBefore := len(s.notes)
	for range 2 {
		touch(t, x)
		touch(t, y)
		s.awaitNote("notifications/resources/updated", updatedURI(yURI), watchTimeout)
	}
	s.ping()
	for _, m := range s.notes[notesBefore:] {
		if updatedURI(xURI)(m) {
			t.Errorf("a notification for a subscription outside the roots: %.300s", m.Raw)
		}
	}
	dormantLogged := false
	for _, m := range s.notes {
		dormantLogged = dormantLogged || m.Method == "notifications/message"
	}
	if !dormantLogged {
		t.Error("no notifications/message at level debug after a subscription went out of scope")
	}

	s.clientRoots = []string{fileURI(root)}
	s.notify("notifications/roots/list_changed", nil)
	s.awaitServerRequest("roots/list", callTimeout)
	s.awaitNote("notifications/resources/list_changed", nil, callTimeout)
	touch(t, x)
	s.awaitNote("notifications/resources/updated", updatedURI(xURI), watchTimeout)
	s.ping()
}

// Issue 11 item 15 and contract S3: after logging/setLevel, a client root
// that grove refuses is reported in a notifications/message, which names no
// path outside the roots; at a level above the report's, nothing is sent.
func TestClientLogging(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		level    string
		wantNote bool
	}{
		{"debug", true},
		{"info", true},
		{"emergency", false},
	} {
		t.Run(tt.level, func(t *testing.T) {
			t.Parallel()
			top := tempRoot(t)
			root, outside := filepath.Join(top, "root"), filepath.Join(top, "outside-secret-place")
			writeFiles(t, root, map[string]string{"a.txt": "alpha\n"})
			writeFiles(t, outside, map[string]string{"b.txt": "beta\n"})
			s := start(t, "--root", root)
			s.clientRoots = []string{fileURI(root)}
			s.initialize(legacyVersion, `{"roots":{"listChanged":true}}`)
			s.awaitServerRequest("roots/list", callTimeout)
			if m := s.call("logging/setLevel", map[string]any{"level": tt.level}); m.Error != nil {
				t.Fatalf("logging/setLevel: %.300s", m.Raw)
			}

			s.clientRoots = []string{fileURI(root), fileURI(outside), "https://example.com/not-a-file-root"}
			s.notify("notifications/roots/list_changed", nil)
			s.awaitServerRequest("roots/list", callTimeout)
			if tt.wantNote {
				s.awaitNote("notifications/message", nil, callTimeout)
			}
			if r := s.callTool("list_roots", map[string]any{}); r.isError || !strings.Contains(r.text, root) {
				t.Errorf("list_roots: %.300s, want the root", r.msg.Raw)
			}
			s.ping()
			var notes int
			for _, m := range s.notes {
				if m.Method != "notifications/message" {
					continue
				}
				notes++
				// The client may hear its own refused root back (it sent the URI, and the
				// message reads the same whether the directory exists), never a real path.
				if raw := strings.ReplaceAll(string(m.Raw), fileURI(outside), ""); strings.Contains(raw, "outside-secret-place") {
					t.Errorf("a log message names a path outside the roots: %.300s", m.Raw)
				}
			}
			if !tt.wantNote && notes > 0 {
				t.Errorf("%d notifications/message at level %s, want none", notes, tt.level)
			}
		})
	}
}

// Contract S3, repository files: at level debug, an index entry grove
// refuses is reported in a notifications/message, which names no absolute
// path outside the roots.
func TestClientLoggingRefusedRepositoryFile(t *testing.T) {
	t.Parallel()
	c := newCraftedRepo(t)
	writeIndex(t, c.gitDir,
		indexEntry{name: "../outside/secret.txt", hash: c.aBlob, size: 6},
		indexEntry{name: "a.txt", hash: c.aBlob, size: 6})
	s := legacy(t, c.root)
	if m := s.call("logging/setLevel", map[string]any{"level": "debug"}); m.Error != nil {
		t.Fatalf("logging/setLevel: %.300s", m.Raw)
	}
	if r := s.callTool("git_status", map[string]any{"repo_path": c.repo}); !r.isError {
		t.Errorf("git_status of a crafted index: %.300s, want an isError result", r.msg.Raw)
	}
	var m *message
	for _, n := range s.notes { // grove may log it before the tool's answer
		if n.Method == "notifications/message" {
			m = n
		}
	}
	if m == nil {
		m = s.awaitNote("notifications/message", nil, callTimeout)
	}
	if strings.Contains(string(m.Raw), c.outside) {
		t.Errorf("a log message names a path outside the roots: %.300s", m.Raw)
	}
	s.ping()
}
