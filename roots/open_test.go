package roots_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/grove-mcp/grove/roots"
)

func TestOpenFile(t *testing.T) {
	tmp := realTempDir(t)
	writeTree(t, tmp, `
-- proj/f.txt --
hello
-- proj/empty.txt --
-- proj/dir/x --
`)
	sc := newScope(t, filepath.Join(tmp, "proj"))
	for _, tt := range []struct {
		input, wantData string
		wantIs          error
	}{
		{input: "f.txt", wantData: "hello\n"},
		{input: "empty.txt", wantData: ""},
		{input: "dir", wantIs: roots.ErrIsDir},
		{input: "dir/", wantIs: roots.ErrIsDir},
		{input: ".", wantIs: roots.ErrIsDir},
		{input: "nope", wantIs: fs.ErrNotExist},
		{input: "f.txt/x", wantIs: roots.ErrNotFound},
	} {
		t.Run(tt.input, func(t *testing.T) {
			loc, err := sc.Resolve(tt.input)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.input, err)
			}
			f, info, err := loc.OpenFile()
			if tt.wantIs != nil {
				if err == nil {
					f.Close()
					t.Fatalf("OpenFile(%q) succeeded, want %v", tt.input, tt.wantIs)
				}
				if f != nil || info != nil {
					t.Errorf("OpenFile(%q) failed but returned a file %v or info %v", tt.input, f, info)
				}
				if pub := roots.PublicError(tt.input, err); !errors.Is(pub, tt.wantIs) {
					t.Errorf("PublicError(%q, OpenFile error %v) = %v, want errors.Is %v", tt.input, err, pub, tt.wantIs)
				}
				return
			}
			if err != nil {
				t.Fatalf("OpenFile(%q): %v", tt.input, err)
			}
			defer f.Close()
			if !info.Mode().IsRegular() || info.Size() != int64(len(tt.wantData)) {
				t.Errorf("OpenFile(%q) info: mode %v size %d, want regular of size %d", tt.input, info.Mode(), info.Size(), len(tt.wantData))
			}
		})
	}
}

func TestPublicErrorKeepsMeaning(t *testing.T) {
	for _, tt := range []struct {
		name   string
		err    error
		wantIs error
		want   string
	}{
		{"nil", nil, nil, ""},
		{"not regular", roots.ErrNotRegular, roots.ErrNotRegular, "in: not a regular file"},
		{"is dir", roots.ErrIsDir, roots.ErrIsDir, "in: is a directory"},
		{"path error", &fs.PathError{Op: "openat", Path: "/real/secret/path", Err: fs.ErrPermission}, fs.ErrPermission, "in: permission denied"},
		{"not exist", &fs.PathError{Op: "openat", Path: "/real/secret/path", Err: fs.ErrNotExist}, roots.ErrNotFound, roots.NotFound("in").Error()},
		{"escape", &fs.PathError{Op: "openat", Path: "x", Err: errors.New("path escapes from parent")}, roots.ErrNotFound, roots.NotFound("in").Error()},
		{"already public", roots.NotFound("other"), roots.ErrNotFound, roots.NotFound("other").Error()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := roots.PublicError("in", tt.err)
			if errText(got) != tt.want {
				t.Errorf("PublicError(in, %v) = %q, want %q", tt.err, errText(got), tt.want)
			}
			if tt.wantIs != nil && !errors.Is(got, tt.wantIs) {
				t.Errorf("PublicError(in, %v) = %v, want errors.Is %v", tt.err, got, tt.wantIs)
			}
		})
	}
}
