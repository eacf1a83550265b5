package roots_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/roots"
)

func TestNewSetErrors(t *testing.T) {
	tmp := setTmp(t)
	for _, tt := range []struct{ root, wantErr string }{
		{filepath.Join(tmp, "nope"), "no such file"},
		{"http://x/y", "only file://"},
		{"file://host" + tmp, "not this machine"},
		{"", "invalid root"},
		{"a\x00b", "invalid root"},
	} {
		t.Run(tt.root, func(t *testing.T) {
			_, err := roots.NewSet([]string{tt.root}, nil)
			checkErr(t, "NewSet", err, tt.wantErr)
		})
	}
}

func TestNewSetAcceptsURIAndDedups(t *testing.T) {
	tmp := setTmp(t)
	ceil := filepath.Join(tmp, "ceil")
	set, err := roots.NewSet([]string{ceil, roots.URI(ceil), ceil + "/", filepath.Join(tmp, "ceil", "link-in", "..")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []summary{{"$TMP/ceil", roots.Flag, false}}
	if diff := cmp.Diff(want, summarize(set.Ceiling().Roots(), tmp)); diff != "" {
		t.Errorf("Ceiling().Roots() mismatch (-want +got):\n%s", diff)
	}
}

func TestClientRootName(t *testing.T) {
	tmp := setTmp(t)
	set, err := roots.NewSet([]string{filepath.Join(tmp, "ceil")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := set.SetClient([]roots.ClientRoot{
		{URI: roots.URI(filepath.Join(tmp, "ceil", "proj")), Name: "My Project"},
		{URI: roots.URI(filepath.Join(tmp, "ceil", "other"))},
	})
	var names []string
	for _, r := range sc.Roots() {
		names = append(names, r.Name)
	}
	if diff := cmp.Diff([]string{"My Project", "other"}, names); diff != "" {
		t.Errorf("root names mismatch (-want +got):\n%s", diff)
	}
}

func TestRootsReturnsACopy(t *testing.T) {
	tmp := setTmp(t)
	sc := newScope(t, filepath.Join(tmp, "ceil"))
	rs := sc.Roots()
	rs[0].Path = "/"
	rs[0].File = true
	want := []summary{{"$TMP/ceil", roots.Flag, false}}
	if diff := cmp.Diff(want, summarize(sc.Roots(), tmp)); diff != "" {
		t.Errorf("Roots() after mutating a returned slice (-want +got):\n%s", diff)
	}
	if got, err := resolveAndRead(t, sc, "top.txt"); err != nil || got != "TOP\n" {
		t.Errorf("top.txt after mutating Roots(): %q, %v", got, err)
	}
}
