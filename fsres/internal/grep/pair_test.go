package grep

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPairScan checks the pair scan against a plain search, at every
// start offset, over random text dense in the literal's bytes.
func TestPairScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct {
		lit  string
		fold bool
	}{
		{"return", false},
		{"static inline", false},
		{"ab", false},
		{"deprecated", true},
		{"x[{", true},
		{"_Q", true},
	} {
		n := needle{lit: []byte(tt.lit), fold: tt.fold}
		n.pair = newPair(n.lit, n.fold)
		alphabet := []byte(tt.lit + "\nXY{[" + string(bytes.ToUpper([]byte(tt.lit))))
		for round := range 50 {
			data := make([]byte, rng.IntN(200))
			for i := range data {
				data[i] = alphabet[rng.IntN(len(alphabet))]
			}
			for from := 0; from <= len(data); from++ {
				if got, want := n.pair.scan(&n, data, from), naiveFind(data, n.lit, tt.fold, from); got != want {
					t.Fatalf("%q (fold %v), round %d, from %d in %q: %d, want %d", tt.lit, tt.fold, round, from, data, got, want)
				}
			}
		}
	}
}

// TestDenseAnchor: a needle whose anchor byte abounds switches to the
// pair scan and still finds every occurrence.
func TestDenseAnchor(t *testing.T) {
	text := bytes.Repeat([]byte(strings.Repeat("u", 40)+" return; ruturn u\n"), 200)
	f := newFinder(literals{strs: []string{"return"}})
	var c cursor
	c.reset(f, text)
	n := 0
	for at := c.find(0); at >= 0; at = c.find(at + 1) {
		if !bytes.HasPrefix(text[at:], []byte("return")) {
			t.Fatalf("false hit at %d", at)
		}
		n++
	}
	if n != 200 || !c.dense[0] {
		t.Errorf("%d hits (dense %v), want 200 through the pair scan", n, c.dense[0])
	}
}

func naiveFind(data, lit []byte, fold bool, from int) int {
	for s := from; s+len(lit) <= len(data); s++ {
		if fold && bytes.EqualFold(data[s:s+len(lit)], lit) || !fold && bytes.Equal(data[s:s+len(lit)], lit) {
			return s
		}
	}
	return len(data)
}
