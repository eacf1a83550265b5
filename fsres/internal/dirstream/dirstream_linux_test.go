package dirstream

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func streamDir(t *testing.T, n int) *os.Root {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestMoreThan(t *testing.T) {
	r := streamDir(t, 99) // and sub: 100 entries
	for _, tt := range []struct {
		n    int
		want bool
	}{{0, true}, {99, true}, {100, false}, {5000, false}} {
		if got := MoreThan(r, tt.n); got != tt.want {
			t.Errorf("MoreThan(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}

// A listing stopped after any entry and resumed from its Off on a new
// descriptor reads every other entry once.
func TestResumeFromOff(t *testing.T) {
	r := streamDir(t, 300)
	var all []Entry
	d, err := Open(r, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	for d.More() {
	}
	all = d.Entries
	d.Close()
	if len(all) != 301 {
		t.Fatalf("read %d entries, want 301", len(all))
	}
	for _, stop := range []int{0, 1, 150, 299} {
		d, err := Open(r, all[stop].Off, 10)
		if err != nil {
			t.Fatal(err)
		}
		for d.More() {
		}
		var got, want []string
		for _, e := range d.Entries {
			got = append(got, e.Name)
		}
		for _, e := range all[stop+1:] {
			want = append(want, e.Name)
		}
		d.Close()
		if !slices.Equal(got, want) {
			t.Errorf("resumed after entry %d: %d entries, want %d", stop, len(got), len(want))
		}
	}
}

func TestLstat(t *testing.T) {
	r := streamDir(t, 1)
	d, err := Open(r, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, tt := range []struct {
		name string
		dir  bool
	}{{"sub", true}, {"f0000", false}} {
		mode, _, _, err := d.Lstat(tt.name)
		if err != nil || mode.IsDir() != tt.dir || !tt.dir && !mode.IsRegular() {
			t.Errorf("Lstat(%s) = %v, %v", tt.name, mode, err)
		}
	}
	if _, _, _, err := d.Lstat("missing"); err == nil {
		t.Error("Lstat of a missing entry succeeded")
	}
}
