package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePorcelain(t *testing.T) {
	const a, b = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	out := a + " 3 1 2\nauthor A\nfilename old name.c\n\tline one\n" +
		a + " 4 2\n\tline two\n" +
		b + " 1 3 1\nauthor B\nboundary\nfilename new.c\n\tline three\n" +
		a + " 9 4 1\nfilename old name.c\n\tline four\n"
	want := []blamed{{a, 3, "old name.c"}, {a, 4, "old name.c"}, {b, 1, "new.c"}, {a, 9, "old name.c"}}
	if diff := cmp.Diff(want, parsePorcelain(out), cmp.AllowUnexported(blamed{})); diff != "" {
		t.Errorf("parsePorcelain mismatch (-want +got):\n%s", diff)
	}
}
