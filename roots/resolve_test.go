package roots_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/roots"
)

const resolveTree = `
-- proj/a.txt --
A
-- proj/sub/b.txt --
B
-- proj/sub/deeper/c.txt --
C
-- proj/a b%20c#?.txt --
odd
-- proj/empty/ --
-- proj-evil/x --
EVIL
-- secret.txt --
SECRET
`

// expand replaces $TMP (the real temporary directory) and $ROOT (the
// root, $TMP/proj) in s, and $URI_TMP and $URI_ROOT with their URIs.
func expand(s, tmp string) string {
	root := filepath.Join(tmp, "proj")
	return strings.NewReplacer(
		"$URI_ROOT", strings.TrimSuffix(roots.URI(root), "/"),
		"$URI_TMP", strings.TrimSuffix(roots.URI(tmp), "/"),
		"$ROOT", root,
		"$TMP", tmp,
	).Replace(s)
}

func TestResolve(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, resolveTree)
	sc := newScope(t, filepath.Join(tmp, "proj"))
	for _, tt := range []struct {
		input, wantRel, wantData, wantErr string
	}{
		{input: "$ROOT/a.txt", wantRel: "a.txt", wantData: "A\n"},
		{input: "$ROOT/sub/b.txt", wantRel: "sub/b.txt", wantData: "B\n"},
		{input: "$ROOT/sub/./deeper/../b.txt", wantRel: "sub/b.txt", wantData: "B\n"},
		{input: "$ROOT//sub///b.txt", wantRel: "sub/b.txt", wantData: "B\n"},
		{input: "$URI_ROOT/a.txt", wantRel: "a.txt", wantData: "A\n"},
		{input: "$URI_ROOT/a%20b%2520c%23%3F.txt", wantRel: "a b%20c#?.txt", wantData: "odd\n"},
		{input: "$URI_ROOT/sub%2Fb.txt", wantRel: "sub/b.txt", wantData: "B\n"},
		{input: "$URI_ROOT/sub/%2e%2e/a.txt", wantRel: "a.txt", wantData: "A\n"},
		{input: "a.txt", wantRel: "a.txt", wantData: "A\n"},
		{input: "./sub/b.txt", wantRel: "sub/b.txt", wantData: "B\n"},
		{input: "sub/deeper/../../a.txt", wantRel: "a.txt", wantData: "A\n"},
		{input: "a b%20c#?.txt", wantRel: "a b%20c#?.txt", wantData: "odd\n"},
		{input: ".", wantRel: "."},
		{input: "$ROOT", wantRel: "."},
		{input: "$ROOT/", wantRel: "."},
		{input: "$URI_ROOT", wantRel: "."},
		{input: "$URI_ROOT/", wantRel: "."},
		{input: "empty", wantRel: "empty"},

		{input: "../secret.txt", wantErr: "../secret.txt: no such file"},
		{input: "sub/../../secret.txt", wantErr: "no such file"},
		{input: "a/../../secret.txt", wantErr: "no such file"},
		{input: "..", wantErr: "no such file"},
		{input: "../proj-evil/x", wantErr: "no such file"},
		{input: "$TMP/secret.txt", wantErr: "no such file"},
		{input: "$ROOT/../secret.txt", wantErr: "no such file"},
		{input: "$TMP/proj-evil/x", wantErr: "no such file"},
		{input: "$TMP/proj-evil", wantErr: "no such file"},
		{input: "$TMP", wantErr: "no such file"},
		{input: "/", wantErr: "no such file"},
		{input: "$URI_TMP/secret.txt", wantErr: "no such file"},
		{input: "$URI_ROOT/%2e%2e/secret.txt", wantErr: "no such file"},
		{input: "$URI_ROOT/..%2Fsecret.txt", wantErr: "no such file"},
		{input: "$URI_ROOT%2F..%2Fsecret.txt", wantErr: "no such file"},
		{input: "$URI_TMP/proj-evil/x", wantErr: "no such file"},
		{input: "", wantErr: "no such file"},
		{input: "a.txt\x00", wantErr: "no such file"},
		{input: "$URI_ROOT/a.txt%00", wantErr: "NUL"},
		{input: "$URI_ROOT/a.txt?x=1", wantErr: "queries and fragments"},
		{input: "$URI_ROOT/a.txt#frag", wantErr: "queries and fragments"},
		{input: "$URI_ROOT/%zz", wantErr: "bad percent-encoding"},
		{input: "http://example.com/a.txt", wantErr: "only file:// URIs"},
		{input: "file://otherhost" + "/a.txt", wantErr: "not this machine"},
	} {
		input := expand(tt.input, tmp)
		t.Run(tt.input, func(t *testing.T) {
			loc, err := sc.Resolve(input)
			if !checkErr(t, "Resolve", err, tt.wantErr) {
				return
			}
			if loc.Rel != tt.wantRel {
				t.Errorf("Resolve(%q).Rel = %q, want %q", input, loc.Rel, tt.wantRel)
			}
			wantAbs := filepath.Join(tmp, "proj", filepath.FromSlash(tt.wantRel))
			if loc.Abs() != wantAbs {
				t.Errorf("Resolve(%q).Abs() = %q, want %q", input, loc.Abs(), wantAbs)
			}
			if got := loc.URI(); got != roots.URI(wantAbs) {
				t.Errorf("Resolve(%q).URI() = %q, want %q", input, got, roots.URI(wantAbs))
			}
			if tt.wantData == "" {
				return
			}
			got, err := readLoc(t, loc)
			if err != nil {
				t.Fatalf("reading %q: %v", input, err)
			}
			if got != tt.wantData {
				t.Errorf("reading %q = %q, want %q", input, got, tt.wantData)
			}
		})
	}
}

// TestResolveOutsideReadsLikeMissing checks that a path outside the roots and
// a missing path inside give the same error, which names only the input.
func TestResolveOutsideReadsLikeMissing(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, resolveTree)
	sc := newScope(t, filepath.Join(tmp, "proj"))
	missingErr := statPublic(sc, "nope.txt")
	if missingErr == nil {
		t.Fatal("nope.txt: no error")
	}
	want := strings.Replace(missingErr.Error(), "nope.txt", "INPUT", 1)
	for _, input := range []string{
		"../secret.txt",
		"../proj-evil/x",
		"sub/../../secret.txt",
		expand("$TMP/secret.txt", tmp),
		expand("$URI_TMP/secret.txt", tmp),
		expand("$URI_ROOT/%2e%2e/secret.txt", tmp),
		expand("$URI_ROOT/..%2Fproj-evil%2Fx", tmp),
		expand("$ROOT/nope.txt", tmp),
		expand("$URI_ROOT/nope.txt", tmp),
	} {
		t.Run(input, func(t *testing.T) {
			err := statPublic(sc, input)
			if err == nil {
				t.Fatalf("%q: no error", input)
			}
			got := strings.Replace(err.Error(), input, "INPUT", 1)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("error text mismatch (-missing +outside):\n%s", diff)
			}
			for _, leak := range []string{filepath.Join(tmp, "secret.txt"), filepath.Join(tmp, "proj-evil")} {
				if !strings.Contains(input, leak) && strings.Contains(err.Error(), leak) {
					t.Errorf("error %q reveals %q", err, leak)
				}
			}
			if !errors.Is(err, roots.ErrNotFound) {
				t.Errorf("errors.Is(%v, ErrNotFound) = false", err)
			}
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("errors.Is(%v, fs.ErrNotExist) = false", err)
			}
		})
	}
}

func TestResolveMissingInsideStatsNotFound(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, resolveTree)
	sc := newScope(t, filepath.Join(tmp, "proj"))
	loc, err := sc.Resolve("sub/nope.txt")
	if err != nil {
		t.Fatalf("Resolve of a missing path inside a root failed early: %v", err)
	}
	_, err = loc.Stat()
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Stat(missing) = %v, want fs.ErrNotExist", err)
	}
	pub := roots.PublicError("sub/nope.txt", err)
	if diff := cmp.Diff(roots.NotFound("sub/nope.txt").Error(), errText(pub)); diff != "" {
		t.Errorf("PublicError mismatch (-want +got):\n%s", diff)
	}
	if !errors.Is(pub, roots.ErrNotFound) || !errors.Is(pub, fs.ErrNotExist) {
		t.Errorf("PublicError(%v) does not wrap ErrNotFound and fs.ErrNotExist", pub)
	}
}

// TestResolvePrefixSibling checks that /a/proj does not contain /a/proj-evil.
func TestResolvePrefixSibling(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, resolveTree)
	sc := newScope(t, filepath.Join(tmp, "proj"))
	for _, input := range []string{
		filepath.Join(tmp, "proj-evil", "x"),
		filepath.Join(tmp, "proj-evil"),
		roots.URI(filepath.Join(tmp, "proj-evil", "x")),
		"../proj-evil/x",
	} {
		t.Run(input, func(t *testing.T) {
			loc, err := sc.Resolve(input)
			if err == nil {
				t.Fatalf("Resolve(%q) = %+v, want not found", input, loc)
			}
			if !errors.Is(err, roots.ErrNotFound) {
				t.Errorf("Resolve(%q) error %v does not wrap ErrNotFound", input, err)
			}
			if _, ok := sc.Locate(filepath.Join(tmp, "proj-evil", "x")); ok {
				t.Errorf("Locate(proj-evil/x) = true")
			}
		})
	}
}

// statPublic resolves input and stats it, returning the client-safe error.
func statPublic(sc *roots.Scope, input string) error {
	loc, err := sc.Resolve(input)
	if err != nil {
		return err
	}
	_, err = loc.Stat()
	return roots.PublicError(input, err)
}
