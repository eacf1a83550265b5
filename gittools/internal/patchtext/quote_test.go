package patchtext

import (
	"bytes"
	"strings"
	"testing"
)

func TestQuotePath(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a/b.go", "a/b.go"},
		{"with space", "with space"},
		{"tab\there", `"tab\there"`},
		{"new\nline", `"new\nline"`},
		{`quo"te`, `"quo\"te"`},
		{`back\slash`, `"back\\slash"`},
		{"é", `"\303\251"`},
		{"\x01", `"\001"`},
		{"del\x7f", `"del\177"`},
	} {
		if got := QuotePath(tt.in); got != tt.want {
			t.Errorf("QuotePath(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestIsBinary(t *testing.T) {
	for _, tt := range []struct {
		name string
		data []byte
		want bool
	}{
		{"text", []byte("hello\n"), false},
		{"nul early", []byte("a\x00b"), true},
		{"nul at 7999", append(bytes.Repeat([]byte("a"), 7999), 0), true},
		{"nul at 8000", append(bytes.Repeat([]byte("a"), 8000), 0), false},
	} {
		if got := IsBinary(tt.data); got != tt.want {
			t.Errorf("%s: IsBinary = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// FuzzWriteFilePatch checks that any pair of texts gives a patch without
// panicking, whose counted lines match the lines it writes.
func FuzzWriteFilePatch(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\nd\n")
	f.Add("", "x")
	f.Add("same\n", "same\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 4096 || len(b) > 4096 {
			return
		}
		var buf bytes.Buffer
		st := WriteFilePatch(&buf, FilePatch{
			From: Side{Path: "f", Mode: 0o100644, Data: []byte(a)},
			To:   Side{Path: "f", Mode: 0o100644, Data: []byte(b)},
		}, Format{Context: 3})
		if st.Binary {
			return
		}
		added, deleted := 0, 0
		for _, l := range strings.Split(buf.String(), "\n") {
			switch {
			case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			case strings.HasPrefix(l, "+"):
				added++
			case strings.HasPrefix(l, "-"):
				deleted++
			}
		}
		if added != st.Added || deleted != st.Deleted {
			t.Fatalf("stat says +%d -%d, patch has +%d -%d:\n%s", st.Added, st.Deleted, added, deleted, buf.String())
		}
		buf.Reset()
		counted := WriteFilePatch(&buf, FilePatch{
			From: Side{Path: "f", Mode: 0o100644, Data: []byte(a)},
			To:   Side{Path: "f", Mode: 0o100644, Data: []byte(b)},
		}, Format{Context: 3, CountOnly: true})
		if counted != st {
			t.Fatalf("CountOnly gives %+v, writing gives %+v", counted, st)
		}
	})
}
