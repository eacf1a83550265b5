package gitwrite

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// gitRepo is a repository made by git in a temporary directory, with no user or system config.
type gitRepo struct {
	t   testing.TB
	dir string
	env []string
}

func newGitRepo(t testing.TB) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	home := t.TempDir()
	r := &gitRepo{t: t, dir: t.TempDir(), env: append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a",
		"GIT_COMMITTER_EMAIL=a@x", "GIT_AUTHOR_DATE=2020-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2020-01-01T00:00:00Z")}
	r.git("init", "-q", "-b", "main")
	r.git("config", "core.untrackedCache", "false")
	r.git("config", "core.fsmonitor", "false")
	return r
}

func (r *gitRepo) git(args ...string) string {
	r.t.Helper()
	out, err := r.gitErr(nil, args...)
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return out
}

func (r *gitRepo) gitErr(stdin []byte, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	cmd.Env = r.env
	cmd.Stdin = bytes.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (r *gitRepo) write(name, text string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *gitRepo) index() []byte {
	r.t.Helper()
	data, err := os.ReadFile(filepath.Join(r.dir, ".git", "index"))
	if err != nil {
		r.t.Fatal(err)
	}
	return data
}

func (r *gitRepo) setIndex(data []byte) {
	r.t.Helper()
	if err := os.WriteFile(filepath.Join(r.dir, ".git", "index"), data, 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// fixture makes a repository of nested directories, one commit, and a cache-tree written by git.
func (r *gitRepo) fixture() {
	for i := range 30 {
		r.write(fmt.Sprintf("d%d/sub%d/f%d.txt", i%3, i%5, i), fmt.Sprintf("file %d\n", i))
	}
	r.write("top.txt", "top\n")
	r.write("a-b/x", "x\n")
	r.write("a/b", "ab\n")
	r.write("run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(r.dir, "run.sh"), 0o755); err != nil {
		r.t.Fatal(err)
	}
	r.git("add", ".")
	r.git("commit", "-q", "-m", "one")
}

// TestIndexRoundTripIsByteExact: an index git wrote (with its cache-tree and every entry flag grove keeps),
// decoded and encoded unchanged, is the same file, in every version.
func TestIndexRoundTripIsByteExact(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			r := newGitRepo(t)
			r.fixture()
			r.git("update-index", "--index-version", version)
			r.git("update-index", "--assume-unchanged", "d0/sub0/f0.txt")
			if version != "2" {
				r.git("update-index", "--skip-worktree", "d1/sub1/f1.txt")
				r.write("new/ita.txt", "ita\n")
				r.git("add", "-N", "new/ita.txt")
			}
			r.git("write-tree") // a cache-tree with valid nodes
			data := r.index()
			ix, err := DecodeIndex(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(ix.tree) == 0 {
				t.Fatal("no cache-tree parsed: the fixture should have one")
			}
			got, err := ix.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Errorf("round trip changed the index: %d bytes in, %d out\nin:  %q\nout: %q", len(data), len(got), data, got)
			}
		})
	}
}

// TestIndexChangesAsGitSeesThem changes a loaded index (replace, remove, add in a new directory, conflict
// stages) and checks what git reads from grove's file: the entries, a clean fsck, and a write-tree that
// equals one from an index without any cache-tree (a stale TREE node would make them differ).
func TestIndexChangesAsGitSeesThem(t *testing.T) {
	for _, version := range []string{"2", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			r := newGitRepo(t)
			r.fixture()
			r.git("update-index", "--index-version", version)
			r.git("write-tree")
			ix, err := DecodeIndex(r.index())
			if err != nil {
				t.Fatal(err)
			}
			r.write("d0/sub0/f0.txt", "changed\n")
			changed := plumbing.NewHash(strings.TrimSpace(r.git("hash-object", "-w", "d0/sub0/f0.txt")))
			e := *ix.Entry("d0/sub0/f0.txt")
			e.Hash, e.Size = changed, 8
			ix.Set(&e)
			ix.RemoveName("d1/sub1/f1.txt")
			r.write("z/new.txt", "new\n")
			added := plumbing.NewHash(strings.TrimSpace(r.git("hash-object", "-w", "z/new.txt")))
			ix.Set(&index.Entry{Name: "z/new.txt", Hash: added, Mode: filemode.Regular})
			ix.Entry("d2/sub2/f2.txt").Hash = added // changed in place, as a caller may
			data, err := ix.Encode()
			if err != nil {
				t.Fatal(err)
			}
			r.setIndex(data)
			ls := r.git("ls-files", "--stage")
			for _, want := range []string{changed.String() + " 0\td0/sub0/f0.txt", added.String() + " 0\tz/new.txt", added.String() + " 0\td2/sub2/f2.txt"} {
				if !strings.Contains(ls, want) {
					t.Errorf("git ls-files --stage lacks %q:\n%s", want, ls)
				}
			}
			if strings.Contains(ls, "d1/sub1/f1.txt") {
				t.Errorf("removed entry still listed:\n%s", ls)
			}
			r.git("fsck", "--no-dangling")
			kept, err := DecodeIndex(data)
			if err != nil {
				t.Fatal(err)
			}
			valid := map[string]bool{}
			for _, n := range kept.tree {
				valid[n.Path] = n.Count >= 0
			}
			if !valid["d0/sub3"] || valid["d0"] || valid[""] || valid["d0/sub0"] {
				t.Errorf("cache-tree validity after the change: %v; want d0/sub3 kept, d0/sub0, d0 and the root invalid", valid)
			}
			if got, want := r.git("write-tree"), r.treeWithoutCache(ls); got != want {
				t.Errorf("git write-tree on grove's index = %s, from scratch = %s: a stale cache-tree node was written", got, want)
			}

			ix, err = DecodeIndex(data)
			if err != nil {
				t.Fatal(err)
			}
			ix.SetStages("top.txt", []*index.Entry{
				{Hash: changed, Mode: filemode.Regular, Stage: 1},
				{Hash: added, Mode: filemode.Regular, Stage: 3},
				{Hash: changed, Mode: filemode.Regular, Stage: 2},
			})
			if data, err = ix.Encode(); err != nil {
				t.Fatal(err)
			}
			r.setIndex(data)
			want := fmt.Sprintf("100644 %s 1\ttop.txt\n100644 %s 2\ttop.txt\n100644 %s 3\ttop.txt\n", changed, changed, added)
			if got := r.git("ls-files", "--stage", "--", "top.txt"); got != want {
				t.Errorf("conflict stages (-want +got):\n%s\n%s", want, got)
			}
		})
	}
}

// treeWithoutCache is the tree git writes from the entries ls (git ls-files --stage) in an index of its own.
func (r *gitRepo) treeWithoutCache(ls string) string {
	r.t.Helper()
	tmp := filepath.Join(r.t.TempDir(), "index")
	env := r.env
	r.env = append(env, "GIT_INDEX_FILE="+tmp)
	defer func() { r.env = env }()
	if out, err := r.gitErr([]byte(ls), "update-index", "--index-info"); err != nil {
		r.t.Fatalf("git update-index --index-info: %v\n%s", err, out)
	}
	return r.git("write-tree")
}

// TestIndexStatusCleanAfterSave: grove's unchanged write keeps the stat data, so git status stays clean, and
// git ls-files --debug shows the same entries.
func TestIndexStatusCleanAfterSave(t *testing.T) {
	r := newGitRepo(t)
	r.fixture()
	r.git("status", "--porcelain") // refresh the stat data
	before := r.git("ls-files", "--stage", "--debug")
	ix, err := DecodeIndex(r.index())
	if err != nil {
		t.Fatal(err)
	}
	data, err := ix.Encode()
	if err != nil {
		t.Fatal(err)
	}
	r.setIndex(data)
	if got := r.git("ls-files", "--stage", "--debug"); got != before {
		t.Errorf("git ls-files --stage --debug changed:\nbefore:\n%s\nafter:\n%s", before, got)
	}
	if st := r.git("status", "--porcelain"); st != "" {
		t.Errorf("git status not clean after grove's write:\n%s", st)
	}
}

// TestIndexRefusesWhatItCannotKeep: split and sparse indexes are refused with an error that says what to run;
// a torn file is refused by its checksum.
func TestIndexRefusesWhatItCannotKeep(t *testing.T) {
	t.Run("split", func(t *testing.T) {
		r := newGitRepo(t)
		r.fixture()
		r.git("update-index", "--split-index")
		r.write("top.txt", "changed\n")
		r.git("add", "top.txt")
		if _, err := DecodeIndex(r.index()); err == nil || !strings.Contains(err.Error(), "split index") {
			t.Errorf("split index: err = %v, want a refusal naming the split index", err)
		}
	})
	t.Run("sparse", func(t *testing.T) {
		r := newGitRepo(t)
		r.fixture()
		r.git("sparse-checkout", "set", "--cone", "--sparse-index", "d0")
		if _, err := DecodeIndex(r.index()); err == nil || !strings.Contains(err.Error(), "sparse index") {
			t.Errorf("sparse index: err = %v, want a refusal naming the sparse index", err)
		}
	})
	t.Run("sparse checkout, full index", func(t *testing.T) {
		r := newGitRepo(t)
		r.fixture()
		r.git("sparse-checkout", "set", "--cone", "--no-sparse-index", "d0")
		data := r.index()
		ix, err := DecodeIndex(data)
		if err != nil {
			t.Fatal(err)
		}
		if e := ix.Entry("d1/sub1/f1.txt"); e == nil || !e.SkipWorktree {
			t.Fatalf("d1/sub1/f1.txt: %+v, want skip-worktree", e)
		}
		got, err := ix.Encode()
		if err != nil {
			t.Fatal(err)
		}
		r.setIndex(got)
		if st := r.git("status", "--porcelain"); st != "" {
			t.Errorf("git status after grove's write of a sparse checkout:\n%s", st)
		}
	})
	t.Run("torn", func(t *testing.T) {
		r := newGitRepo(t)
		r.fixture()
		data := r.index()
		data[len(data)/2] ^= 1
		if _, err := DecodeIndex(data); err == nil || !strings.Contains(err.Error(), "checksum") {
			t.Errorf("flipped bit: err = %v, want a checksum refusal", err)
		}
	})
}

// conflict leaves the repository in a merge that conflicts on top.txt.
func (r *gitRepo) conflict() {
	r.t.Helper()
	r.git("checkout", "-q", "-b", "side")
	r.write("top.txt", "side\n")
	r.git("commit", "-q", "-am", "side")
	r.git("checkout", "-q", "main")
	r.write("top.txt", "main\n")
	r.git("commit", "-q", "-am", "main")
	if out, err := r.gitErr(nil, "merge", "-q", "side"); err == nil {
		r.t.Fatalf("merge did not conflict:\n%s", out)
	}
}

// TestIndexConflictAndDroppedExtensions: a conflicted index git wrote round-trips byte for byte; once resolved
// (git adds REUC) and with the untracked cache on (UNTR), grove drops those two optional extensions and git
// reads the same entries and the same status from its file.
func TestIndexConflictAndDroppedExtensions(t *testing.T) {
	r := newGitRepo(t)
	r.fixture()
	r.conflict()
	data := r.index()
	ix, err := DecodeIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	if !ix.Conflicted("top.txt") || len(ix.ByName["top.txt"]) != 3 {
		t.Fatalf("top.txt: %d stages, conflicted %v; want 3", len(ix.ByName["top.txt"]), ix.Conflicted("top.txt"))
	}
	if got, err := ix.Encode(); err != nil || !bytes.Equal(got, data) {
		t.Errorf("conflicted index round trip changed it (err %v)", err)
	}

	r.write("top.txt", "resolved\n")
	r.git("add", "top.txt")
	r.git("config", "core.untrackedCache", "true")
	r.write("untracked.txt", "u\n")
	r.git("update-index", "--untracked-cache")
	r.git("status", "--porcelain")
	data = r.index()
	for _, ext := range []string{"REUC", "UNTR"} {
		if !bytes.Contains(data, []byte(ext)) {
			t.Fatalf("git's index has no %s extension: the fixture should make one", ext)
		}
	}
	before, status := r.git("ls-files", "--stage", "--debug"), r.git("status", "--porcelain")
	if ix, err = DecodeIndex(data); err != nil {
		t.Fatal(err)
	}
	got, err := ix.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(got, []byte("REUC")) || bytes.Contains(got, []byte("UNTR")) {
		t.Error("grove wrote back REUC or UNTR")
	}
	r.setIndex(got)
	if after := r.git("ls-files", "--stage", "--debug"); after != before {
		t.Errorf("git ls-files --stage --debug changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if after := r.git("status", "--porcelain"); after != status {
		t.Errorf("git status changed:\nbefore:\n%s\nafter:\n%s", status, after)
	}
	r.git("fsck", "--no-dangling")
}

// TestIndexChecksumSHA256: the index of a SHA-256 repository ends with a 32-byte checksum, which gitfmt checks
// as such; DecodeIndex, for SHA-1 repositories only (writes are refused in SHA-256 ones), refuses it.
func TestIndexChecksumSHA256(t *testing.T) {
	r := newGitRepo(t)
	r.git("init", "-q", "--object-format=sha256", "s")
	r.dir = filepath.Join(r.dir, "s")
	r.write("a.txt", "a\n")
	r.git("add", "a.txt")
	data := r.index()
	if !gitfmt.IndexChecksumOK(data, 32) {
		t.Error("SHA-256 checksum of git's index not accepted")
	}
	data[20] ^= 1
	if gitfmt.IndexChecksumOK(data, 32) {
		t.Error("SHA-256 checksum accepted after a flipped bit")
	}
	if _, err := DecodeIndex(data); err == nil {
		t.Error("DecodeIndex read a SHA-256 index")
	}
}

// TestIndexUnmergedFollowsChanges: Unmerged lists conflicted paths sorted, including those staged and left out
// since the last listing.
func TestIndexUnmergedFollowsChanges(t *testing.T) {
	ix, err := DecodeIndex(index50k(t, 100, 2))
	if err != nil {
		t.Fatal(err)
	}
	if u := ix.Unmerged(); len(u) != 0 {
		t.Fatalf("Unmerged = %v on a clean index", u)
	}
	stages := func() []*index.Entry {
		return []*index.Entry{{Mode: filemode.Regular, Stage: 1}, {Mode: filemode.Regular, Stage: 2}}
	}
	ix.SetStages("dir007/sub/file00007.txt", stages())
	ix.SetStages("a-new.txt", stages())
	ix.SetStages("dir001/sub/file00001.txt", stages())
	ix.Set(&index.Entry{Name: "dir001/sub/file00001.txt", Mode: filemode.Regular})
	want := []string{"a-new.txt", "dir007/sub/file00007.txt"}
	if got := ix.Unmerged(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Unmerged = %v, want %v", got, want)
	}
	ix.RemoveName("a-new.txt")
	if got := ix.Unmerged(); fmt.Sprint(got) != fmt.Sprint(want[1:]) {
		t.Errorf("Unmerged after removing a-new.txt = %v, want %v", got, want[1:])
	}
}
