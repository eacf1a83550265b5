package roots_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/roots"
)

const symlinkTree = `
-- proj/real/f.txt --
F
-- proj/real/sub/g.txt --
G
-- outside/s.txt --
S
-- secret.txt --
SECRET
`

// symlinkScope builds symlinkTree with its links and returns the temporary
// directory and a scope whose only root is $TMP/proj.
func symlinkScope(t *testing.T) (string, *roots.Scope) {
	t.Helper()
	tmp := realTempDir(t)
	writeTree(t, tmp, symlinkTree)
	proj := filepath.Join(tmp, "proj")
	for link, target := range map[string]string{
		"rel-link":         "real/f.txt",
		"abs-link":         filepath.Join(proj, "real", "f.txt"),
		"dir-link":         "real",
		"abs-dir-link":     filepath.Join(proj, "real"),
		"real/sub/up-link": "../f.txt",
		"chain":            "rel-link",
		"out-link":         filepath.Join(tmp, "secret.txt"),
		"up-link":          "../secret.txt",
		"out-dir":          filepath.Join(tmp, "outside"),
		"rel-out-dir":      "../outside",
		"in-then-out":      "real/../../secret.txt",
		"via-dir-link":     "abs-dir-link/../../secret.txt",
		"dangling":         "nope.txt",
		"dangling-out":     filepath.Join(tmp, "nope.txt"),
		"loop-a":           "loop-b",
		"loop-b":           "loop-a",
		"self":             "self",
	} {
		symlink(t, target, filepath.Join(proj, filepath.FromSlash(link)))
	}
	return tmp, newScope(t, proj)
}

func TestSymlinks(t *testing.T) {
	tmp, sc := symlinkScope(t)
	for _, tt := range []struct {
		input, wantData string
		wantNotFound    bool
	}{
		{input: "rel-link", wantData: "F\n"},
		{input: "abs-link", wantData: "F\n"},
		{input: "chain", wantData: "F\n"},
		{input: "dir-link/f.txt", wantData: "F\n"},
		{input: "dir-link/sub/g.txt", wantData: "G\n"},
		{input: "abs-dir-link/f.txt", wantData: "F\n"},
		{input: "real/sub/up-link", wantData: "F\n"},
		{input: "dir-link/sub/up-link", wantData: "F\n"},
		{input: "out-link", wantNotFound: true},
		{input: "up-link", wantNotFound: true},
		{input: "out-dir/s.txt", wantNotFound: true},
		{input: "rel-out-dir/s.txt", wantNotFound: true},
		{input: "in-then-out", wantNotFound: true},
		{input: "via-dir-link", wantNotFound: true},
		{input: "dangling", wantNotFound: true},
		{input: "dangling-out", wantNotFound: true},
		{input: "loop-a", wantNotFound: true},
		{input: "loop-a/x", wantNotFound: true},
		{input: "self", wantNotFound: true},
	} {
		t.Run(tt.input, func(t *testing.T) {
			loc, err := sc.Resolve(tt.input)
			if err != nil {
				t.Fatalf("Resolve(%q): %v (the lexical check should pass)", tt.input, err)
			}
			data, openErr := readLoc(t, loc)
			_, statErr := loc.Stat()
			if !tt.wantNotFound {
				if openErr != nil || statErr != nil {
					t.Fatalf("%q: OpenFile: %v, Stat: %v", tt.input, openErr, statErr)
				}
				if data != tt.wantData {
					t.Errorf("%q read %q, want %q", tt.input, data, tt.wantData)
				}
				return
			}
			if openErr == nil || statErr == nil {
				t.Fatalf("%q: OpenFile read %q (err %v), Stat err %v; want both to fail", tt.input, data, openErr, statErr)
			}
			for op, err := range map[string]error{"OpenFile": openErr, "Stat": statErr} {
				checkPublicNotFound(t, op, tt.input, err, tmp)
			}
		})
	}
}

// checkPublicNotFound checks that PublicError turns err into the not-found
// error for input, and that neither reveals the temporary directory.
func checkPublicNotFound(t *testing.T, op, input string, err error, tmp string) {
	t.Helper()
	if strings.Contains(err.Error(), tmp) {
		t.Errorf("%s(%q) error %q reveals the real path %q", op, input, err, tmp)
	}
	pub := roots.PublicError(input, err)
	if diff := cmp.Diff(roots.NotFound(input).Error(), errText(pub)); diff != "" {
		t.Errorf("PublicError(%q, %s error %v) mismatch (-want +got):\n%s", input, op, err, diff)
	}
	if !errors.Is(pub, roots.ErrNotFound) || !errors.Is(pub, fs.ErrNotExist) {
		t.Errorf("PublicError(%q, %v) = %v, want it to wrap ErrNotFound and fs.ErrNotExist", input, err, pub)
	}
}

func TestSymlinkLstatSeesLinkInside(t *testing.T) {
	_, sc := symlinkScope(t)
	loc, err := sc.Resolve("out-link")
	if err != nil {
		t.Fatal(err)
	}
	info, err := loc.Lstat()
	if err != nil {
		t.Fatalf("Lstat(out-link): %v", err)
	}
	if info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat(out-link).Mode() = %v, want a symlink", info.Mode())
	}
}

// TestSymlinkSwappedAfterResolve replaces a directory with a symlink to the
// outside between Resolve and OpenFile.
func TestSymlinkSwappedAfterResolve(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, `
-- proj/d/f.txt --
inside
-- outside/f.txt --
OUTSIDE
`)
	proj := filepath.Join(tmp, "proj")
	sc := newScope(t, proj)
	loc, err := sc.Resolve("d/f.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := readLoc(t, loc); err != nil || got != "inside\n" {
		t.Fatalf("before the swap: %q, %v", got, err)
	}
	if err := os.Rename(filepath.Join(proj, "d"), filepath.Join(tmp, "moved")); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(tmp, "outside"), filepath.Join(proj, "d"))
	if got, err := readLoc(t, loc); err == nil {
		t.Fatalf("after swapping d for a symlink to outside, OpenFile read %q", got)
	} else {
		checkPublicNotFound(t, "OpenFile", "d/f.txt", err, tmp)
	}
	if _, err := loc.Stat(); err == nil {
		t.Errorf("after the swap, Stat succeeded")
	}
}

// TestSymlinkedRoot checks a root given through a symlink: its real path is
// kept, and paths through the alias resolve too.
func TestSymlinkedRoot(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, "-- proj/sub/f.txt --\nF\n")
	proj := filepath.Join(tmp, "proj")
	alias := filepath.Join(tmp, "alias")
	symlink(t, proj, alias)
	set, err := roots.NewSet([]string{alias}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := set.Scope()
	want := []roots.Root{{URI: roots.URI(proj), Path: proj, Name: "proj", Source: roots.Flag}}
	if diff := cmp.Diff(want, sc.Roots()); diff != "" {
		t.Errorf("Roots() mismatch (-want +got):\n%s", diff)
	}
	for _, input := range []string{
		filepath.Join(alias, "sub", "f.txt"),
		roots.URI(filepath.Join(alias, "sub", "f.txt")),
		filepath.Join(proj, "sub", "f.txt"),
		roots.URI(filepath.Join(proj, "sub", "f.txt")),
		"sub/f.txt",
	} {
		t.Run(input, func(t *testing.T) {
			loc, err := sc.Resolve(input)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", input, err)
			}
			if got, want := loc.Abs(), filepath.Join(proj, "sub", "f.txt"); got != want {
				t.Errorf("Abs() = %q, want the real path %q", got, want)
			}
			if got, err := readLoc(t, loc); err != nil || got != "F\n" {
				t.Errorf("read %q, %v", got, err)
			}
		})
	}
	if _, err := sc.Resolve(filepath.Join(tmp, "alias-evil", "x")); !errors.Is(err, roots.ErrNotFound) {
		t.Errorf("a sibling of the alias sharing its prefix resolved: %v", err)
	}
}

// TestSymlinkedClientRoot checks that a client root announced through a
// symlink (as /tmp is on macOS) also resolves paths under the announced URI.
func TestSymlinkedClientRoot(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, "-- proj/sub/f.txt --\nF\n")
	proj := filepath.Join(tmp, "proj")
	alias := filepath.Join(tmp, "alias")
	symlink(t, proj, alias)
	for _, ceiling := range [][]string{nil, {tmp}} {
		t.Run(strings.Join(append([]string{"ceiling"}, ceiling...), ":"), func(t *testing.T) {
			set, err := roots.NewSet(ceiling, nil)
			if err != nil {
				t.Fatal(err)
			}
			sc := set.SetClient([]roots.ClientRoot{{URI: roots.URI(alias)}})
			if diff := cmp.Diff([]string(nil), set.Dropped()); diff != "" {
				t.Fatalf("Dropped() mismatch (-want +got):\n%s", diff)
			}
			for _, input := range []string{
				roots.URI(filepath.Join(proj, "sub", "f.txt")),
				roots.URI(filepath.Join(alias, "sub", "f.txt")),
			} {
				if got, err := resolveAndRead(t, sc, input); err != nil || got != "F\n" {
					t.Errorf("%q: read %q, %v; want %q", input, got, err, "F\n")
				}
			}
		})
	}
}

// TestSymlinkIsNoExistenceOracle checks that a symlink whose target passes
// through an outside directory and comes back in reads the same whether or
// not that outside directory exists: otherwise whoever can plant a link (a
// checked-out repository) learns what exists outside the roots.
func TestSymlinkIsNoExistenceOracle(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, "-- proj/a.txt --\nA\n-- outside/x --\n")
	proj := filepath.Join(tmp, "proj")
	sc := newScope(t, proj)
	for _, tt := range []struct{ name, exists, missing string }{
		{"absolute", tmp + "/outside/../proj/a.txt", tmp + "/missing/../proj/a.txt"},
		{"relative", "../outside/../proj/a.txt", "../missing/../proj/a.txt"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			symlink(t, tt.exists, filepath.Join(proj, tt.name+"-exists"))
			symlink(t, tt.missing, filepath.Join(proj, tt.name+"-missing"))
			_, errExists := resolveAndRead(t, sc, tt.name+"-exists")
			_, errMissing := resolveAndRead(t, sc, tt.name+"-missing")
			if (errExists == nil) != (errMissing == nil) {
				t.Errorf("a link through an existing outside dir gives %v, through a missing one %v: they must read alike", errExists, errMissing)
			}
		})
	}
}

// TestSymlinkedClientRootAnnouncedTwice checks that a client root announced
// both by its real path and through a symlink resolves under both.
func TestSymlinkedClientRootAnnouncedTwice(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, "-- proj/f.txt --\nF\n")
	proj := filepath.Join(tmp, "proj")
	alias := filepath.Join(tmp, "alias")
	symlink(t, proj, alias)
	set, err := roots.NewSet(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := set.SetClient([]roots.ClientRoot{{URI: roots.URI(proj)}, {URI: roots.URI(alias)}})
	for _, input := range []string{filepath.Join(proj, "f.txt"), filepath.Join(alias, "f.txt")} {
		if got, err := resolveAndRead(t, sc, input); err != nil || got != "F\n" {
			t.Errorf("%q: read %q, %v; want %q", input, got, err, "F\n")
		}
	}
}
