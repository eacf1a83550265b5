package roots_test

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/roots"
)

const fuzzTree = `
-- proj/a.txt --
A
-- proj/sub/b.txt --
B
-- proj-evil/x --
SECRET
-- single/f.txt --
F
-- single/sibling.txt --
SECRET
-- secret.txt --
SECRET
`

// FuzzResolve checks that Resolve never panics, that what it returns lies
// lexically inside a root, and that nothing outside the roots can be read.
func FuzzResolve(f *testing.F) {
	tmp, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	writeTree(f, tmp, fuzzTree)
	proj := filepath.Join(tmp, "proj")
	symlink(f, filepath.Join(tmp, "secret.txt"), filepath.Join(proj, "out-link"))
	symlink(f, "../proj-evil", filepath.Join(proj, "out-dir"))
	symlink(f, proj, filepath.Join(tmp, "alias"))
	set, err := roots.NewSet([]string{filepath.Join(tmp, "alias"), filepath.Join(tmp, "single", "f.txt")}, nil)
	if err != nil {
		f.Fatal(err)
	}
	sc := set.Scope()
	for _, seed := range []string{
		"", ".", "..", "a.txt", "../secret.txt", "sub/../../secret.txt", "out-link", "out-dir/x",
		"/", proj + "/a.txt", tmp + "/alias/a.txt", tmp + "/alias/../secret.txt", tmp + "/proj-evil/x",
		tmp + "/single/f.txt", tmp + "/single/sibling.txt", "../single/sibling.txt",
		"file://" + proj + "/a.txt", "file://" + proj + "/%2e%2e/secret.txt", "file://" + proj + "%2F..%2Fsecret.txt",
		"file://" + tmp + "/alias/sub%2Fb.txt", "file://localhost" + proj, "file://host" + proj, "file:///%00",
		"file:///a?b#c", "file:" + proj, "http://x" + proj, "a\x00b", "%2e%2e/secret.txt", "C:\\x", "\\..\\secret.txt",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		loc, err := sc.Resolve(input)
		if err != nil {
			if strings.Contains(err.Error(), tmp) && !strings.Contains(input, tmp) {
				t.Fatalf("Resolve(%q) error %q reveals %q", input, err, tmp)
			}
			return
		}
		checkInside(t, sc, input, loc)
		if file, _, err := loc.OpenFile(); err == nil {
			data, _ := io.ReadAll(file)
			file.Close()
			if strings.Contains(string(data), "SECRET") {
				t.Fatalf("Resolve(%q) = %s read a file outside the roots", input, loc.Abs())
			}
		}
	})
}

// checkInside fails unless loc lies lexically inside one of sc's roots.
func checkInside(t *testing.T, sc *roots.Scope, input string, loc roots.Loc) {
	t.Helper()
	abs := loc.Abs()
	if abs != filepath.Clean(abs) || !filepath.IsAbs(abs) {
		t.Fatalf("Resolve(%q).Abs() = %q is not clean and absolute", input, abs)
	}
	if loc.Rel == ".." || strings.HasPrefix(loc.Rel, "../") || strings.HasPrefix(loc.Rel, "/") {
		t.Fatalf("Resolve(%q).Rel = %q escapes", input, loc.Rel)
	}
	if p, err := roots.Parse(loc.URI()); err != nil || p != abs {
		t.Fatalf("Parse(Resolve(%q).URI() = %q) = %q, %v; want %q", input, loc.URI(), p, err, abs)
	}
	for _, r := range sc.Roots() {
		if r.File && abs == r.Path || !r.File && (abs == r.Path || strings.HasPrefix(abs, r.Path+string(filepath.Separator))) {
			return
		}
	}
	t.Fatalf("Resolve(%q).Abs() = %q is outside every root", input, abs)
}
