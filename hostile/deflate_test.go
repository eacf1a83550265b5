package hostile

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"hash/adler32"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Huge objects are written as deflate streams built by hand (RFC 1950 and
// RFC 1951), not by a compressor: n bytes of a repeating pattern cost one
// stored block holding the pattern, then fixed-Huffman blocks of
// length-258 copies at the pattern's distance, repeated verbatim, so 4 GiB
// take 27 MB and no time. (compress/flate under -race writes 35 MB/s.)

// copiesPerBlock is the number of 258-byte copies in one repeated block. A
// block is 3 header bits, 13 bits a copy (the 8-bit length code 285 and a
// 5-bit distance code) and a 7-bit end code: 10+13k bits, a whole number of
// bytes when k is 6 mod 8, which lets the block's bytes repeat as they are.
const copiesPerBlock = 8*127 + 6

// bitWriter packs deflate's bit stream: values least significant bit
// first, Huffman codes most significant bit first.
type bitWriter struct {
	out  []byte
	acc  byte
	nacc uint
}

func (w *bitWriter) bits(v uint32, n uint) {
	for i := range n {
		w.acc |= byte((v>>i)&1) << w.nacc
		if w.nacc++; w.nacc == 8 {
			w.out = append(w.out, w.acc)
			w.acc, w.nacc = 0, 0
		}
	}
}

func (w *bitWriter) code(c uint32, n uint) {
	for i := int(n) - 1; i >= 0; i-- {
		w.bits(c>>uint(i)&1, 1)
	}
}

// copyBlock is a non-final fixed-Huffman block of copiesPerBlock copies of
// 258 bytes from distance (1 to 4, the distances without extra bits).
func copyBlock(distance int) []byte {
	var w bitWriter
	w.bits(0, 1) // not the final block
	w.bits(1, 2) // fixed Huffman codes
	for range copiesPerBlock {
		w.code(0b11000101, 8) // length code 285: 258 bytes
		w.code(uint32(distance-1), 5)
	}
	w.code(0, 7) // end of block
	if w.nacc != 0 {
		panic("copy block is not a whole number of bytes")
	}
	return w.out
}

// storedBlocks writes data as non-final stored blocks.
func storedBlocks(w io.Writer, data []byte) {
	for len(data) > 0 {
		n := min(len(data), 0xffff)
		w.Write([]byte{0, byte(n), byte(n >> 8), ^byte(n), ^byte(n >> 8)})
		w.Write(data[:n])
		data = data[n:]
	}
}

// periodic returns n bytes of pattern repeated, starting at offset.
func periodic(pattern []byte, offset, n int64) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = pattern[(offset+int64(i))%int64(len(pattern))]
	}
	return b
}

// writePeriodicZlib writes a zlib stream inflating to prefix followed by n
// bytes of pattern repeated (len(pattern) from 1 to 4, n at least
// len(pattern)).
func writePeriodicZlib(w io.Writer, prefix, pattern []byte, n int64) {
	p := int64(len(pattern))
	w.Write([]byte{0x78, 0x01}) // deflate, 32 KiB window, no dictionary
	storedBlocks(w, append(bytes.Clone(prefix), pattern...))
	block := copyBlock(len(pattern))
	perBlock := int64(copiesPerBlock * 258)
	done := p
	for ; n-done >= perBlock; done += perBlock {
		w.Write(block)
	}
	storedBlocks(w, periodic(pattern, done, n-done))
	w.Write([]byte{1, 0, 0, 0xff, 0xff}) // final empty stored block
	binary.Write(w, binary.BigEndian, periodicAdler(prefix, pattern, n))
}

// periodicAdler is the Adler-32 of prefix and n bytes of pattern, combined
// chunk by chunk: appending data of length m with checksum (a2, b2) to
// (a1, b1) gives (a1+a2-1, b1+b2+m(a1-1)) modulo 65521.
func periodicAdler(prefix, pattern []byte, n int64) uint32 {
	chunk := periodic(pattern, 0, int64(len(pattern))<<16)
	chunkSum := adler32.Checksum(chunk)
	sum := adler32.Checksum(prefix)
	for ; n >= int64(len(chunk)); n -= int64(len(chunk)) {
		sum = adlerCombine(sum, chunkSum, int64(len(chunk)))
	}
	return adlerCombine(sum, adler32.Checksum(periodic(pattern, 0, n)), n)
}

func adlerCombine(sum1, sum2 uint32, n2 int64) uint32 {
	const mod = 65521
	a1, b1 := uint64(sum1&0xffff), uint64(sum1>>16)
	a2, b2 := uint64(sum2&0xffff), uint64(sum2>>16)
	a := (a1 + a2 + mod - 1) % mod
	b := (b1 + b2 + uint64(n2%mod)*((a1+mod-1)%mod)) % mod
	return uint32(b<<16 | a)
}

// periodicName is the SHA-1 of prefix and n bytes of pattern.
func periodicName(prefix, pattern []byte, n int64) [20]byte {
	h := sha1.New()
	h.Write(prefix)
	chunk := periodic(pattern, 0, int64(len(pattern))<<16)
	for ; n >= int64(len(chunk)); n -= int64(len(chunk)) {
		h.Write(chunk)
	}
	h.Write(chunk[:n])
	return [20]byte(h.Sum(nil))
}

// writePeriodicLoose stores, under name, a loose object whose inflated form
// is header followed by n bytes of pattern. The header may lie.
func writePeriodicLoose(t *testing.T, gitDir string, name [20]byte, header string, pattern []byte, n int64) {
	t.Helper()
	hexName := hex.EncodeToString(name[:])
	p := filepath.Join(gitDir, "objects", hexName[:2], hexName[2:])
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	writePeriodicZlib(bw, []byte(header), pattern, n)
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// The crafted streams are what they claim: zlib inflates them to the
// prefix and the pattern, with a correct checksum.
func TestPeriodicZlib(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		pattern string
		n       int64
	}{
		{"a", 1},
		{"abc\n", 4},
		{"abc\n", 3*copiesPerBlock*258 + 70000},
		{"xy", copiesPerBlock * 258},
		{"\x00", 2*copiesPerBlock*258 + 1},
	} {
		prefix := []byte("blob 123\x00")
		var z bytes.Buffer
		writePeriodicZlib(&z, prefix, []byte(tt.pattern), tt.n)
		zr, err := zlib.NewReader(&z)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%q × %d: inflating: %v", tt.pattern, tt.n, err)
		}
		want := append(bytes.Clone(prefix), periodic([]byte(tt.pattern), 0, tt.n)...)
		if !bytes.Equal(got, want) {
			t.Errorf("%q × %d: inflated %d bytes, want %d (equal: %v)", tt.pattern, tt.n, len(got), len(want), bytes.Equal(got, want))
		}
		if name, want := periodicName(prefix, []byte(tt.pattern), tt.n), sha1.Sum(want); name != want {
			t.Errorf("%q × %d: name %x, want %x", tt.pattern, tt.n, name, want)
		}
	}
}
