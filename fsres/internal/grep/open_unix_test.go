//go:build unix

package grep

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

func TestDirOpenerReadFile(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "sub", "a.txt"), []byte("hello\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "big.txt"), make([]byte, 100), 0o644))
	outside := t.TempDir()
	must(os.WriteFile(filepath.Join(outside, "outside"), []byte("secret"), 0o644))
	must(os.Symlink("sub/a.txt", filepath.Join(dir, "link")))
	must(os.Symlink("sub", filepath.Join(dir, "sublink")))
	must(os.Symlink(outside, filepath.Join(dir, "away")))
	must(mkfifo(filepath.Join(dir, "fifo")))
	root, err := os.OpenRoot(dir)
	must(err)
	defer root.Close()
	o := DirOpener(root, ".")().(*dirOpener)
	defer o.Close()
	for _, tt := range []struct {
		rel, want string
		wantErr   error
	}{
		{rel: "sub/a.txt", want: "hello\n"},
		{rel: "link", wantErr: errAny},         // a symlink is never followed
		{rel: "fifo", wantErr: os.ErrInvalid},  // opened without blocking, not read
		{rel: "big.txt", wantErr: errTooLarge}, // above the limit
		{rel: "sub/..", wantErr: errAny},
		{rel: "../outside", wantErr: errAny},
		{rel: "missing", wantErr: errAny},
		{rel: "/etc/hostname", wantErr: errAny},
		{rel: "sublink/a.txt", want: "hello\n"}, // a directory symlink inside the root, as os.Root follows it
		{rel: "away/outside", wantErr: errAny},  // but not out of it
		{rel: "sub/../../outside", wantErr: errAny},
	} {
		t.Run(tt.rel, func(t *testing.T) {
			got, err := o.ReadFile(tt.rel, 50, nil)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("ReadFile(%q): %v", tt.rel, err)
			case tt.wantErr == errAny && err == nil, tt.wantErr != nil && tt.wantErr != errAny && !errors.Is(err, tt.wantErr):
				t.Fatalf("ReadFile(%q) = %q, %v; want error %v", tt.rel, got, err, tt.wantErr)
			case tt.wantErr == nil && string(got) != tt.want:
				t.Errorf("ReadFile(%q) = %q, want %q", tt.rel, got, tt.want)
			}
		})
	}
}

// TestDirOpenerBase reads below a base directory, and on Linux without
// opening the file's directory (openat2 beneath the base).
func TestDirOpenerBase(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "base", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "base", "deep", "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	o := DirOpener(root, "base")().(*dirOpener)
	defer o.Close()
	if got, err := o.ReadFile("deep/f", 10, nil); err != nil || string(got) != "x" {
		t.Fatalf("ReadFile = %q, %v", got, err)
	}
	if runtime.GOOS == "linux" && !o.portable && o.d != nil {
		t.Errorf("openat2 is there, yet the file's directory was opened")
	}
	if _, err := o.ReadFile("../../outside", 10, nil); err == nil {
		t.Errorf("ReadFile of a path out of the root succeeded")
	}
}

// errAny stands for any error in TestDirOpenerReadFile.
var errAny = errors.New("any error")

func TestReadFDGrownFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// More than the buffer's slack of one byte, written before the read.
	if _, err := w.WriteString("defghij"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	got, err := readFD(int(f.Fd()), 1<<20, make([]byte, 0, 4), new(unix.Stat_t))
	if err != nil || string(got) != "abcdefghij" {
		t.Errorf("readFD = %q, %v; want the whole grown file", got, err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	if got, err := readFD(int(f.Fd()), 5, nil, new(unix.Stat_t)); !errors.Is(err, errTooLarge) {
		t.Errorf("readFD with limit 5 = %q, %v; want errTooLarge", got, err)
	}
}
