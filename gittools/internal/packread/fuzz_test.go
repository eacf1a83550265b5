package packread

import (
	"bytes"
	"crypto/sha1"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// FuzzPackRead reads every object an index names from fuzzed pack and index bytes: errors are fine,
// panics and hangs are not. The index's record of the pack's checksum is made to match, so that the
// pack is read rather than skipped as replaced.
func FuzzPackRead(f *testing.F) {
	base := "0123456789abcdefghij"
	seeds := [][]synthObj{
		{
			{name: 1, typ: Blob, data: []byte(base), declared: -1, base: -1},
			{name: 2, typ: ofsDelta, data: deltaData(len(base), 8, copyOp(2, 4), insertOp("WXYZ")), declared: -1, base: 0},
			{name: 3, typ: refDelta, data: deltaData(8, 6, insertOp("<"), copyOp(0, 4), insertOp(">")), declared: -1, refBase: 2, base: -1},
		},
		{
			{name: 1, typ: refDelta, data: deltaData(4, 4, copyOp(0, 4)), declared: -1, refBase: 2, base: -1},
			{name: 2, typ: refDelta, data: deltaData(4, 4, copyOp(0, 4)), declared: -1, refBase: 1, base: -1},
		},
	}
	for i, objs := range seeds {
		p, x := buildPack(f, objs, i == 1)
		f.Add(p, x)
	}
	f.Fuzz(func(t *testing.T, p, x []byte) {
		p, x = bytes.Clone(p), bytes.Clone(x) // the fuzzer's inputs must not be modified
		if len(p) >= packHeader+hashLen && len(x) >= idxHeader+fanoutLen+idxTrailer {
			sum := sha1.Sum(p[:len(p)-hashLen])
			copy(p[len(p)-hashLen:], sum[:])
			copy(x[len(x)-2*hashLen:], sum[:])
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "pack-1.pack"), p, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "pack-1.idx"), x, 0o644); err != nil {
			t.Fatal(err)
		}
		r := Open(dir)
		defer r.Close()
		limit := func(Type) int64 { return 1 << 20 }
		_ = r.Load()
		for _, pk := range r.packs {
			for i := range min(pk.idx.n, 64) { // each read may follow MaxChain links: keep an input quick
				var name [20]byte
				copy(name[:], pk.idx.name(i))
				r.Read(name, limit)
			}
		}
	})
}

// TestMutatedPacks reads packs and indexes with random bytes changed (a fixed seed, so a failure repeats):
// errors are fine, panics and hangs are not.
func TestMutatedPacks(t *testing.T) {
	base := "0123456789abcdefghij"
	objs := []synthObj{
		{name: 1, typ: Blob, data: []byte(base), declared: -1, base: -1},
		{name: 2, typ: ofsDelta, data: deltaData(len(base), 8, copyOp(2, 4), insertOp("WXYZ")), declared: -1, base: 0},
		{name: 3, typ: refDelta, data: deltaData(8, 6, insertOp("<"), copyOp(0, 4), insertOp(">")), declared: -1, refBase: 2, base: -1},
	}
	p0, x0 := buildPack(t, objs, false)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	read := 0
	for range 2000 {
		p, x := bytes.Clone(p0), bytes.Clone(x0)
		for range 1 + rng.IntN(3) {
			if rng.IntN(2) == 0 {
				p[rng.IntN(len(p)-hashLen)] = byte(rng.IntN(256))
			} else {
				x[rng.IntN(len(x)-2*hashLen)] = byte(rng.IntN(256))
			}
		}
		sum := sha1.Sum(p[:len(p)-hashLen])
		copy(p[len(p)-hashLen:], sum[:])
		copy(x[len(x)-2*hashLen:], sum[:])
		if err := os.WriteFile(filepath.Join(dir, "pack-1.pack"), p, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "pack-1.idx"), x, 0o644); err != nil {
			t.Fatal(err)
		}
		r := Open(dir)
		_ = r.Load()
		for _, pk := range r.packs {
			for i := range min(pk.idx.n, 64) {
				var name [20]byte
				copy(name[:], pk.idx.name(i))
				if _, _, err := r.Read(name, func(Type) int64 { return 1 << 20 }); err == nil {
					read++
				}
			}
		}
		r.Close()
	}
	if read == 0 {
		t.Error("no mutated pack could be read at all: the mutations only hit checks")
	}
}
