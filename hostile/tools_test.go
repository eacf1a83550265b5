package hostile

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// toolResult is what a tools/call answered.
type toolResult struct {
	msg     *message
	text    string // the text blocks, joined
	isError bool
	took    time.Duration
}

// callTool calls a tool and waits up to callTimeout. A JSON-RPC error
// answer is returned in msg, text and isError left empty.
func (s *session) callTool(name string, args any) toolResult {
	s.t.Helper()
	return s.callToolWithin(name, args, callTimeout)
}

func (s *session) callToolWithin(name string, args any, d time.Duration) toolResult {
	s.t.Helper()
	begin := time.Now()
	id := s.request("tools/call", map[string]any{"name": name, "arguments": args})
	m := s.await(id, d)
	r := toolResult{msg: m, took: time.Since(begin)}
	if m.Error != nil {
		return r
	}
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil {
		s.t.Fatalf("%s: result %.300s: %v", name, m.Raw, err)
	}
	var texts []string
	for _, c := range res.Content {
		texts = append(texts, c.Text)
	}
	r.text, r.isError = strings.Join(texts, "\n"), res.IsError
	return r
}

// refused reports whether a tool call was refused: an isError result or a
// JSON-RPC invalid-params error.
func (r toolResult) refused() bool {
	return r.isError || r.msg.Error != nil && r.msg.Error.Code == -32602
}

// peakRSS is grove's peak resident set (VmHWM), in bytes. It skips the
// check where /proc is not there.
func (s *session) peakRSS() (int64, bool) {
	s.t.Helper()
	if runtime.GOOS != "linux" {
		s.t.Logf("peak RSS not checked on %s", runtime.GOOS)
		return 0, false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		s.t.Fatalf("reading grove's memory: %v", err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				s.t.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb << 10, true
		}
	}
	s.t.Fatal("no VmHWM in /proc/PID/status")
	return 0, false
}

// checkPeakRSS fails the test if grove's peak RSS passed peakRSSLimit.
func (s *session) checkPeakRSS(what string) {
	s.t.Helper()
	if hwm, ok := s.peakRSS(); ok {
		s.t.Logf("%s: grove's peak RSS %d MiB", what, hwm>>20)
		if hwm > peakRSSLimit {
			s.t.Errorf("%s: grove's peak RSS is %d MiB, want < %d MiB", what, hwm>>20, peakRSSLimit>>20)
		}
	}
}

// writeFiles creates files (slash-separated names relative to dir) with
// their contents, and their parent directories.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fileURI is the file:// URI of an absolute path.
func fileURI(p string) string { return "file://" + filepath.ToSlash(p) }

// jsonString is s as a JSON string literal.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// exists reports whether p exists (without following a final symlink).
func exists(t *testing.T, p string) bool {
	t.Helper()
	_, err := os.Lstat(p)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return err == nil
}

// tempRoot returns a fresh directory with symlinks resolved (macOS's /tmp is
// a link, and grove reports resolved paths).
func tempRoot(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}
