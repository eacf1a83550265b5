package roots_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/grove-mcp/grove/roots"
)

// realTempDir returns t.TempDir() with symlinks resolved: on some systems the
// temporary directory itself lies below a symlink (/tmp -> /private/tmp).
func realTempDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeTree writes the files of a txtar archive below dir. A file whose name
// ends in "/" is made as a directory.
func writeTree(t testing.TB, dir, archive string) {
	t.Helper()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if strings.HasSuffix(f.Name, "/") {
			mkdirAll(t, p)
			continue
		}
		mkdirAll(t, filepath.Dir(p))
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func mkdirAll(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

// newScope returns the scope of a Set whose ceiling is dirs.
func newScope(t *testing.T, dirs ...string) *roots.Scope {
	t.Helper()
	set, err := roots.NewSet(dirs, nil)
	if err != nil {
		t.Fatalf("NewSet(%q): %v", dirs, err)
	}
	return set.Scope()
}

// readLoc opens loc through its os.Root and returns the file's contents.
func readLoc(t *testing.T, loc roots.Loc) (string, error) {
	t.Helper()
	f, _, err := loc.OpenFile()
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	return string(data), err
}

// resolveAndRead resolves input in sc and reads it.
func resolveAndRead(t *testing.T, sc *roots.Scope, input string) (string, error) {
	t.Helper()
	loc, err := sc.Resolve(input)
	if err != nil {
		return "", err
	}
	return readLoc(t, loc)
}

// errText returns err's text, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// checkErr reports whether err matches wantErr: nil when wantErr is "",
// otherwise an error whose text contains wantErr.
func checkErr(t *testing.T, what string, err error, wantErr string) bool {
	t.Helper()
	switch {
	case wantErr == "" && err != nil:
		t.Errorf("%s: unexpected error: %v", what, err)
		return false
	case wantErr != "" && err == nil:
		t.Errorf("%s: got no error, want one containing %q", what, wantErr)
		return false
	case wantErr != "" && !strings.Contains(err.Error(), wantErr):
		t.Errorf("%s: error %q does not contain %q", what, err, wantErr)
		return false
	}
	return wantErr == ""
}
