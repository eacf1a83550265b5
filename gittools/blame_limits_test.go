package gittools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/blame"
	"github.com/grove-mcp/grove/scope"

	"github.com/google/go-cmp/cmp"
)

func TestBlameRefusesBlobsOverTheCap(t *testing.T) {
	const size = 12 << 20
	big := strings.Repeat("a line of a file too big to blame\n", size/34+1)
	for _, packed := range []bool{false, true} {
		t.Run(fmt.Sprintf("packed=%v", packed), func(t *testing.T) {
			f := newFixture(t)
			f.write("big.txt", big, "small.txt", "s\n")
			f.commit("add")
			if packed {
				f.git("repack", "-a", "-d", "-q")
			}
			r, sc := f.repos()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, _, err := r.blameTool(testCtx(t), nil, sc, blame.BlameArgs{Path: "big.txt", EndLine: 1})
			runtime.ReadMemStats(&after)
			want := "blob of 12 MiB: over the 10 MiB limit on what git_blame reads"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("blame of a 12 MiB file: err = %v, want it to say %q", err, want)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > size/2 {
				t.Errorf("refusing the blob allocated %d bytes: it was read", got)
			}
			if _, out, err := r.blameTool(testCtx(t), nil, sc, blame.BlameArgs{Path: "small.txt"}); err != nil || out.Total != 1 {
				t.Errorf("blame of a small file next to it: total %d, err %v", out.Total, err)
			}
		})
	}
}

// countingCtx counts the calls of Err.
type countingCtx struct {
	context.Context
	n atomic.Int32
}

func (c *countingCtx) Err() error {
	c.n.Add(1)
	return c.Context.Err()
}

func TestBlameRenameSearchChecksTheContextPerFile(t *testing.T) {
	const deleted = 60
	f := newFixture(t)
	for i := range deleted {
		f.write(fmt.Sprintf("old/f%02d.txt", i), fmt.Sprintf("file %d\nline two\n", i))
	}
	f.commit("add")
	must(t, os.RemoveAll(filepath.Join(f.dir, "old")))
	f.write("new.txt", "nothing like them\nat all\n")
	f.commit("replace")
	r, sc := f.repos()
	ctx := &countingCtx{Context: testCtx(t)}
	if _, _, err := r.blameTool(ctx, nil, sc, blame.BlameArgs{Path: "new.txt"}); err != nil {
		t.Fatal(err)
	}
	if n := ctx.n.Load(); n < deleted {
		t.Errorf("the context was checked %d times while scoring %d deleted files", n, deleted)
	}
	cancelled := &cancelAfter{Context: context.Background()}
	cancelled.n.Store(10) // past the walk's own checks, into the scoring
	if _, _, err := r.blameTool(cancelled, nil, sc, blame.BlameArgs{Path: "new.txt"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled during the rename search: err = %v, want context.Canceled", err)
	}
}

func TestByteSize(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"},
		{1023, "1023 bytes"},
		{1024, "1 KiB"},
		{1536, "1.5 KiB"},
		{10 << 20, "10 MiB"},
		{300 << 20, "300 MiB"},
		{3 << 30, "3 GiB"},
	} {
		if diff := cmp.Diff(tt.want, blame.ByteSize(tt.n)); diff != "" {
			t.Errorf("byteSize(%d) mismatch (-want +got):\n%s", tt.n, diff)
		}
	}
}

func TestBlameFollowsMaxReadBytes(t *testing.T) {
	f := newFixture(t)
	f.write("two.txt", strings.Repeat("x\n", 1024))
	f.commit("add")
	sc := scopeOf(t, f.dir)
	r := New(Options{Scope: scope.Static(sc), MaxReadBytes: 1 << 10})
	t.Cleanup(func() { r.Close() })
	_, _, err := r.blameTool(testCtx(t), nil, sc, blame.BlameArgs{Path: "two.txt", EndLine: 1})
	if want := "blob of 2 KiB: over the 1 KiB limit"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("blame of a 2 KiB file under a 1 KiB --max-file-size: err = %v, want it to say %q", err, want)
	}
}
