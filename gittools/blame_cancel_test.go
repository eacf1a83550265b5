package gittools

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/blame"
)

// cancelAfter is a context that reports cancellation from its n+1-th Err call on: it cancels a blame in the
// middle of its walk without timers.
type cancelAfter struct {
	context.Context
	n atomic.Int32
}

func (c *cancelAfter) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func TestBlameStopsWhenCancelled(t *testing.T) {
	f := newFixture(t)
	var text strings.Builder
	for i := range 8 {
		text.WriteString("line " + strconv.Itoa(i) + "\n")
		f.write("grow.txt", text.String())
		f.commit("line " + strconv.Itoa(i))
	}
	r, sc := f.repos()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := r.blameTool(cancelled, nil, sc, blame.BlameArgs{Path: "grow.txt"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the call: err = %v, want context.Canceled", err)
	}
	mid := &cancelAfter{Context: context.Background()}
	mid.n.Store(3) // open checks once; the walk gets two commits in
	if _, _, err := r.blameTool(mid, nil, sc, blame.BlameArgs{Path: "grow.txt"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled during the walk: err = %v, want context.Canceled", err)
	}
	if mid.n.Load() >= 0 {
		t.Errorf("the walk did not reach the cancellation (%d checks left)", mid.n.Load())
	}
	_, out, err := r.blameTool(testCtx(t), nil, sc, blame.BlameArgs{Path: "grow.txt"})
	if err != nil || out.Total != 8 {
		t.Fatalf("blame after a cancelled one: total %d, err %v", out.Total, err)
	}
}
