package gitwrite

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"testing"
)

// FuzzDecodeIndex feeds crafted index files (their checksum made right, so the parser is reached) to
// DecodeIndex: no panic, no allocation beyond what the file's size bounds, and whatever it accepts Encode
// writes back into a file DecodeIndex reads as the same entries.
//
//	go test ./gittools/internal/gitwrite -run '^$' -fuzz FuzzDecodeIndex -fuzztime 60s
func FuzzDecodeIndex(f *testing.F) {
	for _, version := range []uint32{2, 3, 4} {
		f.Add(stripSum(index50k(f, 3, version)))
	}
	f.Add(stripSum(crafted(2, 1<<30, nil)))                                            // a count the file cannot hold
	f.Add(stripSum(crafted(4, 1, append(make([]byte, 62), 0xff, 0xff, 0x7f, 'a', 0)))) // a strip past the previous name
	f.Add(stripSum(crafted(2, 1, append(make([]byte, 62), bytes.Repeat([]byte{'a'}, 5000)...))))
	f.Add(stripSum(crafted(2, 0, []byte("TREE\xff\xff\xff\xff"))))
	f.Add(stripSum(crafted(2, 0, []byte("TREE\x00\x00\x00\x0a\x000 99999999\n"))))
	f.Fuzz(func(t *testing.T, body []byte) {
		data := withSum(body)
		ix, err := DecodeIndex(data)
		if err != nil {
			return
		}
		out, err := ix.Encode()
		if err != nil {
			return // an entry go-git's type cannot carry back (a timestamp past 2106 is not one: uint32 seconds)
		}
		again, err := DecodeIndex(out)
		if err != nil {
			t.Fatalf("grove cannot read back its own encoding: %v", err)
		}
		a, b := ix.All(), again.All()
		if len(a) != len(b) {
			t.Fatalf("%d entries written, %d read back", len(a), len(b))
		}
		for i := range a {
			if *a[i] != *b[i] {
				t.Fatalf("entry %d written as %+v, read back as %+v", i, *a[i], *b[i])
			}
		}
	})
}

// crafted is an index header claiming n entries of the given version, then rest, then a checksum.
func crafted(version, n uint32, rest []byte) []byte {
	b := []byte("DIRC")
	b = binary.BigEndian.AppendUint32(b, version)
	b = binary.BigEndian.AppendUint32(b, n)
	return withSum(append(b, rest...))
}

func withSum(body []byte) []byte {
	sum := sha1.Sum(body)
	return append(bytes.Clone(body), sum[:]...)
}

func stripSum(data []byte) []byte { return data[:len(data)-sha1.Size] }
