package gittools

import (
	"bytes"
	"compress/zlib"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/blame"
	"github.com/grove-mcp/grove/gittools/internal/diff"
	"github.com/grove-mcp/grove/gittools/internal/history"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
	"github.com/grove-mcp/grove/scope"
)

// sha256Repo makes a SHA-256 repository beside f's worktree with the history layoutBase gives f's, and
// returns its worktree.
func sha256Repo(t *testing.T, f *fixture) string {
	t.Helper()
	dir := filepath.Join(filepath.Dir(f.dir), "sha256")
	f.gitIn(filepath.Dir(f.dir), "init", "-q", "-b", "main", "--object-format=sha256", dir)
	for _, c := range []struct {
		msg   string
		files []string
	}{
		{"first", []string{"a.txt", "one\ntwo\nthree\n", "docs/guide.md", "# guide\n", "src/main.go", "package main\n", "src/lib/x.go", "package lib\n"}},
		{"second", []string{"a.txt", "one\n2\nthree\nfour\n", "docs/more.md", "more\n"}},
		{"third", []string{"src/main.go", "package main\n\nfunc main() {}\n", "a.txt", "one\n2\nthree\nfour\nfive\n"}},
	} {
		writeFiles(t, dir, c.files...)
		f.gitIn(dir, "add", "-A")
		f.gitIn(dir, "commit", "-q", "-m", c.msg)
	}
	return dir
}

// writeFiles creates or replaces files (pairs of a slash path relative to dir and its content).
func writeFiles(t *testing.T, dir string, files ...string) {
	t.Helper()
	for i := 0; i+1 < len(files); i += 2 {
		p := filepath.Join(dir, filepath.FromSlash(files[i]))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sha256Edits stages one change and leaves another unstaged, a file untracked and one deleted.
func sha256Edits(t *testing.T, f *fixture, dir string) layout {
	writeFiles(t, dir, "src/main.go", "package main // staged\n", "new.txt", "n\n")
	f.gitIn(dir, "add", "src/main.go")
	writeFiles(t, dir, "a.txt", "one\n2\nthree (edited)\nfour\nfive\n")
	os.Remove(filepath.Join(dir, "docs/more.md"))
	return layout{Scope: scopeOf(t, dir), Dir: dir, Blame: "a.txt"}
}

func TestLayoutsSHA256MatchGit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, f *fixture) layout
	}{
		{"SHA-256, loose objects, edited worktree", func(t *testing.T, f *fixture) layout {
			return sha256Edits(t, f, sha256Repo(t, f))
		}},
		{"SHA-256, packed by git gc", func(t *testing.T, f *fixture) layout {
			dir := sha256Repo(t, f)
			f.gitIn(dir, "gc", "-q")
			return sha256Edits(t, f, dir)
		}},
		{"SHA-256, packed with deltas, then loose commits", func(t *testing.T, f *fixture) layout {
			dir := sha256Repo(t, f)
			var long []byte
			for i := range 400 {
				long = append(long, []byte("line "+string(rune('a'+i%26))+"\n")...)
			}
			writeFiles(t, dir, "big.txt", string(long))
			f.gitIn(dir, "add", "big.txt")
			f.gitIn(dir, "commit", "-q", "-m", "big")
			writeFiles(t, dir, "big.txt", string(long)+"tail\n", "a.txt", "one\n2\nthree\nfour\nfive\nsix\n")
			f.gitIn(dir, "commit", "-q", "-am", "bigger")
			f.gitIn(dir, "repack", "-q", "-a", "-d", "-f", "--depth=10", "--window=10")
			writeFiles(t, dir, "a.txt", "zero\none\n2\nthree\nfour\nfive\nsix\n")
			f.gitIn(dir, "commit", "-q", "-am", "loose after the pack")
			return sha256Edits(t, f, dir)
		}},
		{"SHA-256, split index", func(t *testing.T, f *fixture) layout {
			dir := sha256Repo(t, f)
			f.gitIn(dir, "config", "core.splitIndex", "true")
			f.gitIn(dir, "update-index", "--split-index")
			l := sha256Edits(t, f, dir)
			if data, err := os.ReadFile(filepath.Join(dir, ".git", "index")); err != nil || !bytes.Contains(data, []byte("link")) {
				t.Fatalf("the index has no link extension (err %v)", err)
			}
			return l
		}},
		{"SHA-256, sparse checkout cone", func(t *testing.T, f *fixture) layout {
			dir := sha256Repo(t, f)
			f.gitIn(dir, "sparse-checkout", "set", "docs")
			writeFiles(t, dir, "docs/guide.md", "# edited\n")
			return layout{Scope: scopeOf(t, dir), Dir: dir, Blame: "a.txt"}
		}},
		{"SHA-256, index v4", func(t *testing.T, f *fixture) layout {
			dir := sha256Repo(t, f)
			f.gitIn(dir, "update-index", "--index-version", "4")
			return sha256Edits(t, f, dir)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			l := tt.setup(t, f)
			checkLayout(t, f, l)
			r := New(Options{Scope: scope.Static(l.Scope)})
			t.Cleanup(func() { r.Close() })
			checkHistory(t, f, r, l.Scope, l.RepoPath, l.Dir)
		})
	}
}

// TestBareSHA256MatchesGit: a bare clone of a SHA-256 repository, packed or not, reads as git reads it.
func TestBareSHA256MatchesGit(t *testing.T) {
	for _, packed := range []bool{false, true} {
		t.Run(map[bool]string{false: "loose", true: "packed"}[packed], func(t *testing.T) {
			f := newFixture(t)
			src := sha256Repo(t, f)
			dir := filepath.Join(filepath.Dir(f.dir), "bare256.git")
			f.gitIn(filepath.Dir(f.dir), "init", "-q", "--bare", "--object-format=sha256", dir)
			f.gitIn(src, "push", "-q", dir, "main:main")
			f.gitIn(dir, "symbolic-ref", "HEAD", "refs/heads/main")
			if packed {
				f.gitIn(dir, "gc", "-q")
			}
			checkBare(t, f, scopeOf(t, dir), "", dir)
		})
	}
}

// TestSHA256WritesRefused: the write tools say a SHA-256 repository is read-only, and write nothing.
func TestSHA256WritesRefused(t *testing.T) {
	f := newFixture(t)
	dir := sha256Repo(t, f)
	writeFiles(t, dir, "a.txt", "changed\n")
	sc := scopeOf(t, dir)
	r := New(Options{Scope: scope.Static(sc)})
	t.Cleanup(func() { r.Close() })
	ctx := testCtx(t)
	before := f.gitIn(dir, "status", "--porcelain")
	errs := map[string]error{}
	_, _, errs["add"] = r.add(ctx, nil, sc, writecmd.AddArgs{Files: []string{"a.txt"}})
	_, _, errs["commit"] = r.commitTool(ctx, nil, sc, writecmd.CommitArgs{Message: "m"})
	_, _, errs["create_branch"] = r.createBranch(ctx, nil, sc, writecmd.CreateBranchArgs{BranchName: "topic"})
	for tool, err := range errs {
		if !errors.Is(err, repo.ErrReadOnlySHA256) {
			t.Errorf("%s: %v, want %q", tool, err, repo.ErrReadOnlySHA256)
		}
	}
	if after := f.gitIn(dir, "status", "--porcelain"); after != before {
		t.Errorf("status changed from %q to %q", before, after)
	}
	if out := f.gitIn(dir, "branch", "--list", "topic"); out != "" {
		t.Errorf("branch topic was created: %q", out)
	}
}

// TestSHA256BigBlobCapped: a SHA-256 blob over the 32 MiB grove reads whole is sized, not read, whatever the
// read limit: the diff names it with the limit and blame says the limit, loose or packed.
func TestSHA256BigBlobCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 33 MiB file")
	}
	for _, packed := range []bool{false, true} {
		t.Run(map[bool]string{false: "loose", true: "packed"}[packed], func(t *testing.T) {
			f := newFixture(t)
			dir := sha256Repo(t, f)
			writeFiles(t, dir, "big.txt", strings.Repeat("0123456789abcdef\n", 33<<20/17))
			f.gitIn(dir, "add", "big.txt")
			f.gitIn(dir, "commit", "-q", "-m", "big")
			if packed {
				f.gitIn(dir, "gc", "-q")
			}
			sc := scopeOf(t, dir)
			r := New(Options{Scope: scope.Static(sc), MaxReadBytes: 64 << 20}) // past the 32 MiB of SHA-256 blobs
			t.Cleanup(func() { r.Close() })
			ctx := testCtx(t)
			res, out, err := r.diffTool(ctx, nil, sc, diff.DiffArgs{Target: "HEAD~1..HEAD"})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Files) != 1 || out.Files[0].Path != "big.txt" {
				t.Errorf("git_diff files %+v, want big.txt alone; text:\n%s", out.Files, resultText(res))
			}
			if text := resultText(res); !strings.Contains(text, "blob of 33 MiB not shown (over the 32 MiB limit") {
				t.Errorf("git_diff of a 33 MiB blob does not say the limit:\n%s", text)
			}
			_, _, err = r.blameTool(ctx, nil, sc, blame.BlameArgs{Path: "big.txt"})
			if err == nil || !strings.Contains(err.Error(), "limit") {
				t.Errorf("git_blame of a 33 MiB blob: %v, want an error that says the limit", err)
			}
			_, _, err = r.logTool(ctx, nil, sc, history.LogArgs{})
			if err != nil {
				t.Errorf("git_log: %v", err)
			}
		})
	}
}

// TestSHA256HostileObjects: a malformed tree and a loose object whose header lies about its size are errors
// that name the object, never a crash, and the tools that do not need them still answer.
func TestSHA256HostileObjects(t *testing.T) {
	for _, tt := range []struct {
		name, rev, content string
		want               string
	}{
		{"truncated tree entry", "HEAD^{tree}", "tree 20\x00100644 a.txt\x00abcdefg", "malformed tree"},
		{"tree claiming 1 GiB", "HEAD^{tree}", "tree 1073741824\x00", "over the 32 MiB limit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			dir := sha256Repo(t, f)
			full := strings.TrimSpace(f.gitIn(dir, "rev-parse", tt.rev))
			p := filepath.Join(dir, ".git", "objects", full[:2], full[2:])
			var b bytes.Buffer
			z := zlib.NewWriter(&b)
			z.Write([]byte(tt.content))
			z.Close()
			os.Chmod(p, 0o644)
			if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			sc := scopeOf(t, dir)
			r := New(Options{Scope: scope.Static(sc)})
			t.Cleanup(func() { r.Close() })
			ctx := testCtx(t)
			if _, _, err := r.logTool(ctx, nil, sc, history.LogArgs{}); err != nil {
				t.Errorf("git_log: %v", err)
			}
			_, _, err := r.diffTool(ctx, nil, sc, diff.DiffArgs{Target: "HEAD~1..HEAD"})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("git_diff: %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestSHA256PromptsShowWholeNames: the review prompts' commit header and file history name commits with all
// 64 digits, as git show does.
func TestSHA256PromptsShowWholeNames(t *testing.T) {
	f := newFixture(t)
	dir := sha256Repo(t, f)
	sc := scopeOf(t, dir)
	r := New(Options{Scope: scope.Static(sc)})
	t.Cleanup(func() { r.Close() })
	ctx := testCtx(t)
	msg, _, err := r.Show(ctx, sc, "", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if want := f.gitIn(dir, "show", "-s", "HEAD"); msg != want {
		t.Errorf("Show header mismatch (-git +grove):\n%s", cmp.Diff(want, msg))
	}
	hist, err := r.FileLog(ctx, sc, filepath.Join(dir, "a.txt"), 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range strings.Fields(f.gitIn(dir, "log", "--format=%H", "--", "a.txt")) {
		if !strings.Contains(hist, "commit "+h+"\n") {
			t.Errorf("FileLog does not name commit %s:\n%s", h, hist)
		}
	}
}

// TestSHA256LooseFIFO: a FIFO where a loose-object directory or file should be is passed over, never waited on.
func TestSHA256LooseFIFO(t *testing.T) {
	f := newFixture(t)
	dir := sha256Repo(t, f)
	full := strings.TrimSpace(f.gitIn(dir, "rev-parse", "HEAD:a.txt"))
	fan := filepath.Join(dir, ".git", "objects", full[:2])
	if err := os.RemoveAll(fan); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(fan); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	sc := scopeOf(t, dir)
	r := New(Options{Scope: scope.Static(sc)})
	t.Cleanup(func() { r.Close() })
	_, _, err := r.blameTool(testCtx(t), nil, sc, blame.BlameArgs{Path: "a.txt"})
	if err == nil {
		t.Error("git_blame of a blob behind a FIFO: no error")
	}
}
