package repo

import (
	"container/heap"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type timed struct{ t, seq int }

func (x timed) CommitTime() (int64, int) { return int64(x.t), x.seq }

// TestByCommitTimePutTake: Put and Take give the order heap.Push and heap.Pop give, ties included, also
// when pushes and pops interleave.
func TestByCommitTimePutTake(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 7, 100, 1000} {
		var a, b ByCommitTime[timed]
		var got, want []timed
		for i := range n {
			x := timed{t: rng.IntN(20), seq: i}
			heap.Push(&a, x)
			b.Put(x)
			if rng.IntN(3) == 0 {
				want = append(want, heap.Pop(&a).(timed))
				got = append(got, b.Take())
			}
		}
		for a.Len() > 0 {
			want = append(want, heap.Pop(&a).(timed))
			got = append(got, b.Take())
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(timed{})); diff != "" {
			t.Errorf("n=%d: order differs (-heap +Put/Take):\n%s", n, diff)
		}
	}
}
