package watch

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// step is one moment of a batcher timeline: at (since start), a change to path or a read by the
// consumer, then the batch that must be ready (unread).
type step struct {
	at        time.Duration
	path      string // "" adds nothing
	read      bool   // the consumer reads the ready batch
	wantReady []string
}

func TestBatcher(t *testing.T) {
	const debounce, maxDelay = 50 * time.Millisecond, 300 * time.Millisecond
	for _, tt := range []struct {
		name  string
		steps []step
	}{
		{
			name: "trailing debounce",
			steps: []step{
				{at: 0, path: "a"},
				{at: 30 * time.Millisecond, path: "b"},
				{at: 79 * time.Millisecond},
				{at: 80 * time.Millisecond, wantReady: []string{"a", "b"}},
			},
		},
		{
			name:  "capped by MaxDelay during a continuous burst",
			steps: burst(20*time.Millisecond, 15, 299*time.Millisecond, 300*time.Millisecond),
		},
		{
			name: "slow consumer: later bursts merge into the unread batch",
			steps: []step{
				{at: 0, path: "a"},
				{at: 50 * time.Millisecond, wantReady: []string{"a"}},
				{at: 60 * time.Millisecond, path: "b", wantReady: []string{"a"}},
				{at: 110 * time.Millisecond, wantReady: []string{"a", "b"}},
				{at: 120 * time.Millisecond, read: true},
				{at: 130 * time.Millisecond, path: "c"},
				{at: 180 * time.Millisecond, wantReady: []string{"c"}},
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				b := newBatcher(debounce, maxDelay)
				for _, s := range tt.steps {
					time.Sleep(time.Until(start.Add(s.at)))
					fire(b)
					if s.path != "" {
						b.pending.changed.add(s.path)
						b.touched(time.Now())
					}
					if s.read && b.hasReady {
						b.delivered()
					}
					if diff := cmp.Diff(s.wantReady, b.readyBatch.Changed); diff != "" {
						t.Errorf("at %v: ready batch mismatch (-want +got):\n%s", s.at, diff)
					}
				}
			})
		})
	}
}

// fire flushes b if its timer has fired, as run does.
func fire(b *batcher) {
	select {
	case <-b.timer.C:
		b.flush()
	default:
	}
}

// burst adds a new path every interval, n times, and expects all paths made before the cap ready at cap.
func burst(interval time.Duration, n int, before, cap time.Duration) []step {
	var steps []step
	var all []string
	for i := range n {
		at := time.Duration(i) * interval
		p := fmt.Sprintf("p%02d", i)
		if at < cap {
			all = append(all, p)
		}
		steps = append(steps, step{at: at, path: p})
	}
	steps = append(steps, step{at: before}, step{at: cap, wantReady: all})
	return steps
}
