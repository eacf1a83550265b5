package roots_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/roots"
)

func TestResolveRelativeAgainstFirstRoot(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, `
-- one/f.txt --
one
-- two/f.txt --
two
-- two/only2.txt --
2
`)
	sc := newScope(t, filepath.Join(tmp, "one"), filepath.Join(tmp, "two"))
	got, err := resolveAndRead(t, sc, "f.txt")
	if err != nil || got != "one\n" {
		t.Errorf("f.txt = %q, %v; want %q from the first root", got, err, "one\n")
	}
	if err := statPublic(sc, "only2.txt"); !errors.Is(err, roots.ErrNotFound) {
		t.Errorf("only2.txt (only in the second root) = %v, want ErrNotFound: relative paths use the first root", err)
	}
	got, err = resolveAndRead(t, sc, "../two/only2.txt")
	if err != nil || got != "2\n" {
		t.Errorf("../two/only2.txt = %q, %v; want %q (inside the second root)", got, err, "2\n")
	}
	got, err = resolveAndRead(t, sc, filepath.Join(tmp, "two", "f.txt"))
	if err != nil || got != "two\n" {
		t.Errorf("absolute two/f.txt = %q, %v; want %q", got, err, "two\n")
	}
}

func TestResolveEmptyScope(t *testing.T) {
	sc := newScope(t)
	if !sc.Empty() {
		t.Fatalf("scope without roots is not empty: %+v", sc.Roots())
	}
	for _, input := range []string{"a.txt", "/etc/passwd", "file:///etc/passwd", "."} {
		if _, err := sc.Resolve(input); !errors.Is(err, roots.ErrNotFound) {
			t.Errorf("Resolve(%q) in an empty scope = %v, want ErrNotFound", input, err)
		}
	}
}

func TestNotFound(t *testing.T) {
	err := roots.NotFound("x/y")
	if diff := cmp.Diff("x/y: no such file or directory within the allowed roots", err.Error()); diff != "" {
		t.Errorf("NotFound text mismatch (-want +got):\n%s", diff)
	}
	if !errors.Is(err, roots.ErrNotFound) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("NotFound does not wrap ErrNotFound and fs.ErrNotExist")
	}
}

// TestResolveRelativeWithColon checks relative paths whose first element
// holds a colon: they are paths, not URIs. On Windows a colon names an
// alternate data stream, and the Windows grammar refuses it (winpath_test.go).
func TestResolveRelativeWithColon(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a colon in a name is an alternate data stream on Windows")
	}
	tmp := realTempDir(t)
	writeTree(t, tmp, `
-- proj/notes:v2.md --
notes
-- proj/2024-01-01T10:00.log --
log
`)
	sc := newScope(t, filepath.Join(tmp, "proj"))
	for _, tt := range []struct{ input, want string }{
		{"notes:v2.md", "notes\n"},
		{"2024-01-01T10:00.log", "log\n"},
		{"./notes:v2.md", "notes\n"},
		{filepath.Join(tmp, "proj", "notes:v2.md"), "notes\n"},
	} {
		t.Run(tt.input, func(t *testing.T) {
			if got, err := resolveAndRead(t, sc, tt.input); err != nil || got != tt.want {
				t.Errorf("read %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
