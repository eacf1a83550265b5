package ignore

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"golang.org/x/tools/txtar"
)

// isolateGit points HOME and XDG_CONFIG_HOME at a fresh directory, for both
// the git oracle and the matcher under test, and returns the environment
// for running git. It skips the test if git is not installed.
func isolateGit(t *testing.T) []string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH; the differential tests need it as an oracle")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	env := []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return env
}

// runGit runs the git oracle in dir and returns its stdout.
func runGit(t *testing.T, env []string, dir string, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		// check-ignore exits 1 when nothing is ignored.
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || stderr.Len() > 0 {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
	}
	return out
}

// writeTree writes the files of a txtar archive under dir. A file named
// "name@" becomes a symlink to its (trimmed) content.
func writeTree(t *testing.T, dir, archive string) {
	t.Helper()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		name := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutSuffix(name, "@"); ok {
			if err := os.Symlink(strings.TrimSpace(string(f.Data)), target); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if strings.HasSuffix(f.Name, "/") {
			continue // just the directory
		}
		if err := os.WriteFile(name, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// initRepo makes dir a repository whose index holds exactly tracked (with
// their blobs), written in index format version.
func initRepo(t *testing.T, dir string, version uint32, tracked ...string) {
	t.Helper()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	writeIndexVersion(t, r, dir, version, tracked...)
}

// writeIndex replaces the index of the repository at dir.
func writeIndex(t *testing.T, dir string, tracked ...string) {
	t.Helper()
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	writeIndexVersion(t, r, dir, 2, tracked...)
}

func writeIndexVersion(t *testing.T, r *git.Repository, dir string, version uint32, tracked ...string) {
	t.Helper()
	idx := &index.Index{Version: version}
	slices.Sort(tracked)
	for _, name := range tracked {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		obj := r.Storer.NewEncodedObject()
		obj.SetType(plumbing.BlobObject)
		w, _ := obj.Writer()
		w.Write(data)
		w.Close()
		h, err := r.Storer.SetEncodedObject(obj)
		if err != nil {
			t.Fatal(err)
		}
		idx.Entries = append(idx.Entries, &index.Entry{Name: name, Hash: h, Mode: filemode.Regular,
			Size: uint32(len(data)), ModifiedAt: time.Now()})
	}
	if err := r.Storer.SetIndex(idx); err != nil {
		t.Fatal(err)
	}
}

// listTree returns every path under dir (files, symlinks and directories,
// with isDir), skipping .git entries and the insides of repositories other
// than dir, whose tops it returns in nested.
func listTree(t *testing.T, dir string) (paths map[string]bool, nested []string) {
	t.Helper()
	paths = map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
			return nil
		case d.Name() == ".git":
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		paths[rel] = d.IsDir()
		if d.IsDir() && rel != "." {
			if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
				nested = append(nested, rel)
				return filepath.SkipDir
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths, nested
}

// verdict is what git check-ignore -v -n says about one path.
type verdict struct {
	Source  string // base name of the file holding the deciding pattern
	Line    string
	Pattern string
}

// checkIgnore asks git about every path in paths (relative to dir). With
// noIndex, git leaves tracked files out of account.
func checkIgnore(t *testing.T, env []string, dir string, paths []string, noIndex bool) map[string]verdict {
	t.Helper()
	if len(paths) == 0 {
		return nil
	}
	args := []string{"check-ignore", "--stdin", "-z", "-v", "-n"}
	if noIndex {
		args = append(args, "--no-index")
	}
	var in bytes.Buffer
	for _, p := range paths {
		in.WriteString(p)
		in.WriteByte(0)
	}
	out := runGit(t, env, dir, in.Bytes(), args...)
	fields := strings.Split(string(out), "\x00")
	got := map[string]verdict{}
	for i := 0; i+3 < len(fields); i += 4 {
		v := verdict{Line: fields[i+1], Pattern: fields[i+2]}
		if fields[i] != "" {
			v.Source = path.Base(fields[i])
		}
		got[fields[i+3]] = v
	}
	if len(got) != len(paths) {
		t.Fatalf("git check-ignore answered for %d of %d paths", len(got), len(paths))
	}
	return got
}

// ourVerdict is the matcher's answer in check-ignore's terms: tracked paths
// (and directories holding them) are not looked at, so they have no pattern,
// unless noIndex.
func ourVerdict(m *Matcher, rel string, isDir, noIndex bool) verdict {
	p, _ := m.decide(rel, isDir)
	if p == nil || !noIndex && m.Tracked(rel) {
		return verdict{}
	}
	return verdict{Source: path.Base(p.source), Line: strconv.Itoa(p.line), Pattern: p.text}
}
