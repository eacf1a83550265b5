package gittools

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/status"

	"github.com/grove-mcp/grove/gittools/internal/scan"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/internal/panics"
	"github.com/grove-mcp/grove/scope"
)

// records is a slog handler that keeps every record, for tests of what is logged for the client.
type records struct {
	mu   sync.Mutex
	recs []slog.Record
}

func (h *records) Enabled(context.Context, slog.Level) bool { return true }
func (h *records) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recs = append(h.recs, r.Clone())
	return nil
}
func (h *records) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *records) WithGroup(string) slog.Handler      { return h }

// forClient returns the attributes of every record meant for the client (audience=client), with the message
// under "msg" and the level under "level".
func (h *records) forClient() []map[string]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []map[string]string
	for _, r := range h.recs {
		m := map[string]string{"msg": r.Message, "level": r.Level.String()}
		r.Attrs(func(a slog.Attr) bool {
			m[a.Key] = a.Value.String()
			return true
		})
		if m["audience"] == "client" {
			out = append(out, m)
		}
	}
	return out
}

// connectWith serves every git tool over dir with opts (Scope is filled in) and returns a client session.
func connectWith(t *testing.T, dir string, opts Options) *mcp.ClientSession {
	t.Helper()
	opts.Scope = scope.Static(scopeOf(t, dir))
	return serveTools(t, opts, nil)
}

// A blob over the read limit is described from its header, in git_show and in git_diff, and never read.
func TestBlobOverReadLimitDescribed(t *testing.T) {
	f := newFixture(t)
	f.write("big.txt", strings.Repeat("line\n", 1000), "small.txt", "s\n")
	f.commit("one")
	f.write("big.txt", strings.Repeat("line\n", 1001))
	f.commit("two")
	cs := connectWith(t, f.dir, Options{MaxReadBytes: 1 << 10})
	const want = "blob of 4.9 KiB not shown (over the 1 KiB limit; raise it with --max-file-size)"
	for _, c := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"git_show", map[string]any{"revision": "HEAD", "path": "big.txt"}, "big.txt at "},
		{"git_show", map[string]any{"revision": "HEAD"}, "Files a/big.txt and b/big.txt differ: "},
		{"git_diff", map[string]any{"target": "HEAD~1..HEAD"}, "Files a/big.txt and b/big.txt differ: "},
		{"git_diff", map[string]any{"target": "HEAD~1..HEAD", "stat_only": true}, "not diffed: over --max-file-size"},
	} {
		text, isErr := callWithin(t, cs, 20*time.Second, c.name, c.args)
		if isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s %v: %q, want %q", c.name, c.args, text, c.want)
		}
		if stat, _ := c.args["stat_only"].(bool); !stat && !strings.Contains(text, want) {
			t.Errorf("%s %v: %q, want the description %q", c.name, c.args, text, want)
		}
	}
	if text, _ := callWithin(t, cs, 20*time.Second, "git_show", map[string]any{"revision": "HEAD", "path": "small.txt"}); text != "s\n" {
		t.Errorf("small file shown as %q", text)
	}
}

// replaceLoose overwrites the loose object of path at HEAD with a zlib stream of header and then size zero
// bytes (written in chunks: the test never holds them).
func replaceLoose(t *testing.T, f *fixture, path, header string, size int64) {
	t.Helper()
	h := strings.TrimSpace(f.git("rev-parse", "HEAD:"+path))
	name := filepath.Join(f.dir, ".git", "objects", h[:2], h[2:])
	os.Chmod(name, 0o644)
	out, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	z := zlib.NewWriter(out)
	z.Write([]byte(header))
	zeros := make([]byte, 1<<20)
	for left := size; left > 0; left -= int64(len(zeros)) {
		z.Write(zeros[:min(left, int64(len(zeros)))])
	}
	z.Close()
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// A loose object's header decides how much is read: a header that claims little for a stream that holds
// much is an error after the claimed bytes, and a header that claims much is believed without inflating.
func TestLooseObjectSizedFromItsHeader(t *testing.T) {
	f := newFixture(t)
	f.write("lie.txt", "small\n", "huge.txt", "also small\n")
	f.commit("one")
	replaceLoose(t, f, "lie.txt", "blob 10\x00", 64<<20)
	replaceLoose(t, f, "huge.txt", "blob 107374182400\x00", 3)
	cs := connectWith(t, f.dir, Options{})
	text, isErr := callWithin(t, cs, 20*time.Second, "git_show", map[string]any{"revision": "HEAD", "path": "lie.txt"})
	if !isErr || !strings.Contains(text, "does not match the size in its header") {
		t.Errorf("git_show of a blob longer than its header: %q, want a corrupt-object error", text)
	}
	text, isErr = callWithin(t, cs, 20*time.Second, "git_show", map[string]any{"revision": "HEAD", "path": "huge.txt"})
	if isErr || !strings.Contains(text, "blob of 100 GiB not shown") {
		t.Errorf("git_show of a blob whose header says 100 GiB: %q, want it described from the header", text)
	}
}

// git_add refuses a file over maxAddBytes before reading it, naming the limit, and stages nothing.
func TestAddRefusesFilesOverTheLimit(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	big := filepath.Join(f.dir, "big.bin")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, gitwrite.MaxAddBytes+1); err != nil { // sparse: no disk, no time
		t.Fatal(err)
	}
	f.write(map[string]string{"b.txt": "b\n"})
	for _, files := range [][]string{{"big.bin"}, {"b.txt", "big.bin"}, {"."}} {
		f.fails("git_add", map[string]any{"files": files}, "big.bin is 100 MiB, over the 100 MiB that git_add stores")
	}
	if out := f.git("ls-files", "--stage"); strings.Contains(out, "big.bin") || strings.Contains(out, "b.txt") {
		t.Errorf("the index changed:\n%s", out)
	}
}

// git_add stores files by streaming them: the objects are what git writes (same hash, valid zlib), whatever
// the chunk boundaries, and a CRLF split across two chunks is still found.
func TestAddStreamsObjectsLikeGit(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	data := make([]byte, 3<<20+17)
	rand.Read(data)
	if err := os.WriteFile(filepath.Join(f.dir, "random.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	f.write(map[string]string{"empty.txt": "x"})
	os.Truncate(filepath.Join(f.dir, "empty.txt"), 0)
	f.ok("git_add", map[string]any{"files": []string{"random.bin", "empty.txt"}}, nil)
	for _, name := range []string{"random.bin", "empty.txt"} {
		want := f.git("hash-object", name)
		if got := f.git("rev-parse", ":"+name); got != want {
			t.Errorf("%s staged as %s, git hashes it as %s", name, got, want)
		}
	}
	if out, err := f.gitRun("fsck", "--strict", "--no-dangling"); err != nil {
		t.Errorf("git fsck: %v\n%s", err, out)
	}
	f.git("config", "core.autocrlf", "true")
	f.write(map[string]string{"crlf.txt": strings.Repeat("a", 64<<10-1) + "\r\nb\n"})
	f.fails("git_add", map[string]any{"files": []string{"crlf.txt"}}, "CRLF line endings")
}

// A store cancelled part-way leaves no temporary object behind.
func TestWriteBlobCancelled(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("one")
	r, sc := f.repos()
	rp, unlock, err := r.open(testCtx(t), sc, "")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = rp.Store.WriteBlobFrom(ctx, bytes.NewReader(make([]byte, 1<<20)), 1<<20, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("writeBlobFrom with a cancelled context: %v, want context.Canceled", err)
	}
	left, _ := filepath.Glob(filepath.Join(f.dir, ".git", "objects", "tmp_obj_*"))
	if len(left) > 0 {
		t.Errorf("temporary objects left behind: %v", left)
	}
}

// A request waiting for a repository another request holds gives up when its context ends (issue 11 item 8:
// the lock ignored the request's context).
func TestRepoLockHonoursContext(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("one")
	r, sc := f.repos()
	_, unlock, err := r.open(testCtx(t), sc, "")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, _, err := r.status(ctx, nil, sc, status.StatusArgs{})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("status waiting for the lock: %v, want context.DeadlineExceeded", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("status still waits for the repository after its context ended")
	}
}

// Files go-git reads whole (refs, HEAD) are bounded: a crafted 2 MiB ref is refused, not read.
func TestOversizedRefRefused(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	f.commit("one")
	big := filepath.Join(f.dir, ".git", "refs", "heads", "big")
	if err := os.WriteFile(big, bytes.Repeat([]byte("0"), 2<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := &records{}
	cs := connectWith(t, f.dir, Options{Logger: slog.New(logs)})
	text, isErr := callWithin(t, cs, 20*time.Second, "git_branch", map[string]any{})
	if !isErr || !strings.Contains(text, ".git/refs/heads/big refused: it is over the 1 MiB limit") {
		t.Errorf("git_branch with a 2 MiB ref: %q (isError %v), want the ref refused", text, isErr)
	}
	if !loggedRefusal(logs, ".git/refs/heads/big") {
		t.Errorf("no refusal logged for the client: %v", logs.forClient())
	}
}

// An index over maxIndexFile is refused from its size, by the read and the write tools.
func TestOversizedIndexRefused(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	if err := os.Truncate(filepath.Join(f.dir, ".git", "index"), gitfmt.MaxIndexFile+1<<20); err != nil {
		t.Fatal(err)
	}
	const want = ".git/index refused: it is 129 MiB, over the 128 MiB limit"
	f.fails("git_status", map[string]any{}, want)
	f.fails("git_add", map[string]any{"files": []string{"a.txt"}}, want)
}

// loggedRefusal reports whether a Warn record for the client says file was refused.
func loggedRefusal(logs *records, file string) bool {
	for _, m := range logs.forClient() {
		if m["msg"] == "repository file refused" && m["level"] == "WARN" && m["file"] == file {
			return true
		}
	}
	return false
}

// Refusals of repository data reach the client's log (contract S3): Warn, audience=client, the file named
// relative to the repository, and nothing of the offending data or of paths outside the roots.
func TestRefusalsLoggedForTheClient(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	craftIndex(t, f.dir, "../outside/secret.txt")
	logs := &records{}
	cs := connectWith(t, f.dir, Options{Logger: slog.New(logs)})
	callWithin(t, cs, 20*time.Second, "git_status", map[string]any{})
	callWithin(t, cs, 20*time.Second, "git_reset", map[string]any{})
	if !loggedRefusal(logs, ".git/index") {
		t.Fatalf("no refusal of .git/index logged for the client: %v", logs.forClient())
	}
	for _, m := range logs.forClient() {
		for k, v := range m {
			if strings.Contains(v, "outside") || strings.Contains(v, "secret") || k != "repo" && strings.Contains(v, f.dir) {
				t.Errorf("client log record %v holds %s=%q", m, k, v)
			}
		}
	}

	g := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	cfg := filepath.Join(g.dir, ".git", "config")
	old, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(old, bytes.Repeat([]byte("# padding\n"), 200_000)...), 0o644)
	logs = &records{}
	cs = connectWith(t, g.dir, Options{Logger: slog.New(logs)})
	callWithin(t, cs, 20*time.Second, "git_status", map[string]any{})
	if !loggedRefusal(logs, ".git/config") {
		t.Errorf("no refusal of a 2 MiB .git/config logged for the client: %v", logs.forClient())
	}
}

// A panic in a scan goroutine ends that request with an error; the process goes on.
func TestScanPanicBecomesAnError(t *testing.T) {
	rp := &repo.Repo{} // no worktree handle: the scan dereferences nil on its goroutine
	idx := &gitfmt.Index{Entries: []gitfmt.IndexEntry{{Name: "a.txt"}}}
	_, _, err := scan.LstatEntries(rp, testCtx(t), idx, 0, 1, nil)
	if pe := (*panics.Error)(nil); !errors.As(err, &pe) {
		t.Errorf("lstatEntries on a broken repo: %v, want a *panics.Error", err)
	}
}
