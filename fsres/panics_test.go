package fsres

import (
	"fmt"
	"strings"
	"testing"
)

// A grep worker that panics ends the search with an error for that call, not
// an answer missing the worker's files; the session goes on.
func TestGrepWorkerPanic(t *testing.T) {
	root := t.TempDir()
	var archive strings.Builder
	for i := range 20 {
		fmt.Fprintf(&archive, "-- f%02d.txt --\nmatch\n", i)
	}
	writeTxtar(t, root, archive.String())
	cs := connect(t, newFiles(t, false, root), modern)
	testHookGrepFile = func(rel string) {
		if rel == "f07.txt" {
			panic("bad input")
		}
	}
	t.Cleanup(func() { testHookGrepFile = nil })
	if msg := toolErr(t, cs, "grep", GrepArgs{Pattern: "match"}); !strings.Contains(msg, "internal error") {
		t.Errorf("grep with a panicking worker: %q, want an internal error", msg)
	}
	testHookGrepFile = nil
	var got GrepResult
	toolOK(t, cs, "grep", GrepArgs{Pattern: "match"}, &got)
	if len(got.Matches) != 20 {
		t.Errorf("grep after the panic: %d matches, want 20", len(got.Matches))
	}
}
