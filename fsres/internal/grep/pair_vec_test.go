package grep

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestPairScanEveryTail checks the pair scan (the vector filter where
// there is one, then the word-wide code) and the word-wide code alone
// against a plain search, for random literals and texts of every length
// up to a few vector blocks, from every start, caseless or not.
func TestPairScanEveryTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, mode := range pairModes() {
		t.Run(mode.name, func(t *testing.T) {
			mode.set(t)
			for round := range 60 {
				fold := round%2 == 1
				n := randomNeedle(rng, 2+rng.IntN(11), fold)
				text := randomText(rng, n.lit, 3*32+len(n.lit)+8)
				for size := 0; size <= len(text); size++ {
					data := text[:size]
					for from := 0; from <= size; from++ {
						want := naiveFindASCII(data, n.lit, fold, from)
						if got := n.pair.scan(&n, data, from); got != want {
							t.Fatalf("scan %q (fold %v) from %d in %q: %d, want %d", n.lit, fold, from, data, got, want)
						}
						if got := n.pair.scanWords(&n, data, from); got != want {
							t.Fatalf("scanWords %q (fold %v) from %d in %q: %d, want %d", n.lit, fold, from, data, got, want)
						}
					}
				}
			}
		})
	}
}

// TestPairScanLong checks every match of long random texts, found one
// after another as the finder does.
func TestPairScanLong(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, mode := range pairModes() {
		t.Run(mode.name, func(t *testing.T) {
			mode.set(t)
			for round := range 40 {
				fold := round%2 == 0
				n := randomNeedle(rng, 2+rng.IntN(30), fold)
				data := randomText(rng, n.lit, 1+rng.IntN(20000))
				for at := 0; at <= len(data); {
					want := naiveFindASCII(data, n.lit, fold, at)
					got := n.pair.scan(&n, data, at)
					if got != want {
						t.Fatalf("%q (fold %v) from %d of %d bytes: %d, want %d", n.lit, fold, at, len(data), got, want)
					}
					at = got + 1
				}
			}
		})
	}
}

// FuzzPairScan compares the pair scan with a plain search.
func FuzzPairScan(f *testing.F) {
	f.Add([]byte("\treturn x;\n\tRETURN y; returns"), "return", false, uint16(0))
	f.Add([]byte("xx Deprecated deprecated DEPRECATED"), "deprecated", true, uint16(3))
	f.Add(bytes.Repeat([]byte("ab"), 40), "ba", true, uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, lit string, fold bool, from uint16) {
		if len(lit) < 2 || len(lit) > 64 {
			return
		}
		n := needle{lit: []byte(lit), fold: fold}
		if fold {
			for i, c := range n.lit {
				n.lit[i] = lower(c)
			}
		}
		n.pair = newPair(n.lit, fold)
		start := min(int(from), len(data))
		if got, want := n.pair.scan(&n, data, start), naiveFindASCII(data, n.lit, fold, start); got != want {
			t.Fatalf("%q (fold %v) from %d in %q: %d, want %d", n.lit, fold, start, data, got, want)
		}
	})
}

// pairMode is one way the pair scan can run on this machine.
type pairMode struct {
	name string
	set  func(t testing.TB) // switches to it until the test ends
}

func randomNeedle(rng *rand.Rand, size int, fold bool) needle {
	const letters = "abcdefghijklmnopqrstuvwxyzAZ_(){}[]09 \t\x80\xff@`"
	lit := make([]byte, size)
	for i := range lit {
		lit[i] = letters[rng.IntN(len(letters))]
		if fold {
			lit[i] = lower(lit[i])
		}
	}
	n := needle{lit: lit, fold: fold}
	n.pair = newPair(n.lit, fold)
	return n
}

// randomText is text made of lit's bytes in both cases and a few others,
// with whole copies of lit here and there, so candidates and matches are
// dense.
func randomText(rng *rand.Rand, lit []byte, size int) []byte {
	alphabet := append(append(append([]byte{}, lit...), bytes.ToUpper(lit)...), "\nXy@`[{"...)
	data := make([]byte, size)
	for i := range data {
		data[i] = alphabet[rng.IntN(len(alphabet))]
	}
	for range size / 50 {
		at := rng.IntN(size)
		copy(data[at:], lit)
	}
	return data
}

// naiveFindASCII is naiveFind with ASCII-only case folding, as the finder
// folds.
func naiveFindASCII(data, lit []byte, fold bool, from int) int {
	for s := from; s+len(lit) <= len(data); s++ {
		if fold && equalFold(data[s:s+len(lit)], lit) || !fold && bytes.Equal(data[s:s+len(lit)], lit) {
			return s
		}
	}
	return len(data)
}

// BenchmarkPairScan scans 32 KB of C without "return", which stays in the
// cache as a file just read does: the filter's own speed.
func BenchmarkPairScan(b *testing.B) {
	line := []byte("\tstrbuf_addf(&sb, \"%s: %d\\n\", name, count); /* rturn ruin */\n")
	data := bytes.Repeat(line, 32<<10/len(line))
	for _, mode := range pairModes() {
		b.Run(mode.name, func(b *testing.B) {
			mode.set(b)
			n := needle{lit: []byte("return")}
			n.pair = newPair(n.lit, false)
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if n.pair.scan(&n, data, 0) != len(data) {
					b.Fatal("false match")
				}
			}
		})
	}
}
