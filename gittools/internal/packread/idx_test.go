package packread

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// testIdx builds a version-2 index of names (sorted here) with hashLen-byte names; object i is at pack offset
// packHeader+i.
func testIdx(t testing.TB, names [][]byte, hashLen int) *idx {
	names = slices.Clone(names)
	slices.SortFunc(names, bytes.Compare)
	data := append([]byte{}, idxMagic...)
	data = binary.BigEndian.AppendUint32(data, 2)
	n := 0
	for b := range 256 {
		for n < len(names) && int(names[n][0]) <= b {
			n++
		}
		data = binary.BigEndian.AppendUint32(data, uint32(n))
	}
	for _, name := range names {
		data = append(data, name...)
	}
	data = append(data, make([]byte, 4*len(names))...) // CRCs
	for i := range names {
		data = binary.BigEndian.AppendUint32(data, uint32(packHeader+i))
	}
	data = append(data, make([]byte, 2*hashLen)...)
	x, err := parseIdx("test.idx", data, hashLen)
	if err != nil {
		t.Fatal(err)
	}
	x.packSz = 1 << 40
	return x
}

func randomNames(r *rand.Rand, n, hashLen int, shape func(name []byte)) [][]byte {
	names := make([][]byte, n)
	for i := range names {
		names[i] = make([]byte, hashLen)
		for j := range names[i] {
			names[i][j] = byte(r.Uint32())
		}
		shape(names[i])
	}
	slices.SortFunc(names, bytes.Compare)
	return slices.CompactFunc(names, func(a, b []byte) bool { return bytes.Equal(a, b) })
}

func TestIdxFind(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct {
		name    string
		n       int
		hashLen int
		shape   func(name []byte) // what is not random in a name
	}{
		{"hashes", 20000, hashLen, func([]byte) {}},
		{"one", 1, hashLen, func([]byte) {}},
		{"sha256", 5000, sha256Len, func([]byte) {}},
		{"one first byte", 3000, hashLen, func(n []byte) { n[0] = 0x42 }},
		{"first byte 255", 3000, hashLen, func(n []byte) { n[0] = 0xff }},
		{"clustered", 3000, hashLen, func(n []byte) { n[0], n[1], n[2] = 0x42, 0, n[2]&1 }},
		{"same first 8 bytes", 3000, hashLen, func(n []byte) { copy(n, "\x42\x42\x42\x42\x42\x42\x42\x42") }},
		{"two clumps", 3000, hashLen, func(n []byte) {
			n[0] = 0x10
			if n[1]&1 == 0 {
				n[1], n[2] = 0, 0
			} else {
				n[1], n[2] = 0xff, 0xff
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			names := randomNames(r, tt.n, tt.hashLen, tt.shape)
			x := testIdx(t, names, tt.hashLen)
			for i, name := range names {
				off, ok, err := x.find(name)
				if err != nil || !ok || off != int64(packHeader+i) {
					t.Fatalf("find(%x) = %d, %v, %v; want %d", name, off, ok, err, packHeader+i)
				}
				if tt.hashLen == sha256Len {
					if off, ok, _ := x.find(name[:hashLen]); !ok || off != int64(packHeader+i) {
						t.Fatalf("find(%x, 20-byte key) = %d, %v; want %d", name[:hashLen], off, ok, packHeader+i)
					}
				}
			}
			for range 2000 {
				absent := randomNames(r, 1, tt.hashLen, tt.shape)[0]
				if _, found := slices.BinarySearchFunc(names, absent, bytes.Compare); found {
					continue
				}
				if off, ok, err := x.find(absent); ok || err != nil {
					t.Fatalf("find(%x) of an absent name = %d, %v, %v", absent, off, ok, err)
				}
			}
		})
	}
}

func BenchmarkIdxFind(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	names := randomNames(r, 1_000_000, hashLen, func([]byte) {})
	x := testIdx(b, names, hashLen)
	order := r.Perm(len(names))
	b.ResetTimer()
	for i := range b.N {
		if _, ok, _ := x.find(names[order[i%len(order)]]); !ok {
			b.Fatal("not found")
		}
	}
}
