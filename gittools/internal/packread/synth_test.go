package packread

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// synthObj is one object of a pack the tests build byte by byte.
type synthObj struct {
	name     byte // the object's name is 20 bytes of this value
	typ      Type
	data     []byte // what is compressed: content, or delta data
	declared int64  // the size in the header; -1: len(data)
	base     int    // OFS_DELTA: index of the base object (earlier); -1: none
	refBase  byte   // REF_DELTA: name byte of the base
	off      int64  // set by buildPack
}

func synthName(b byte) [20]byte {
	var n [20]byte
	for i := range n {
		n[i] = b
	}
	return n
}

// buildPack writes objs as a pack and its version-2 index; big64 puts every offset in the 8-byte table.
func buildPack(t testing.TB, objs []synthObj, big64 bool) (packData, idxData []byte) {
	t.Helper()
	var p bytes.Buffer
	p.WriteString("PACK")
	binary.Write(&p, binary.BigEndian, uint32(2))
	binary.Write(&p, binary.BigEndian, uint32(len(objs)))
	for i := range objs {
		o := &objs[i]
		o.off = int64(p.Len())
		size := o.declared
		if size < 0 {
			size = int64(len(o.data))
		}
		typ := o.typ
		b := byte(typ)<<4 | byte(size&0x0f)
		size >>= 4
		for size > 0 {
			p.WriteByte(b | 0x80)
			b = byte(size & 0x7f)
			size >>= 7
		}
		p.WriteByte(b)
		switch typ {
		case ofsDelta:
			v := o.off - objs[o.base].off
			enc := []byte{byte(v & 0x7f)}
			for v >>= 7; v > 0; v >>= 7 {
				v--
				enc = append([]byte{byte(0x80 | v&0x7f)}, enc...)
			}
			p.Write(enc)
		case refDelta:
			n := synthName(o.refBase)
			p.Write(n[:])
		}
		zw := zlib.NewWriter(&p)
		zw.Write(o.data)
		zw.Close()
	}
	sum := sha1.Sum(p.Bytes())
	p.Write(sum[:])

	sorted := slices.Clone(objs)
	slices.SortFunc(sorted, func(a, b synthObj) int { return int(a.name) - int(b.name) })
	var x bytes.Buffer
	x.Write(idxMagic)
	binary.Write(&x, binary.BigEndian, uint32(2))
	for i := range 256 {
		n := 0
		for _, o := range sorted {
			if int(o.name) <= i {
				n++
			}
		}
		binary.Write(&x, binary.BigEndian, uint32(n))
	}
	for _, o := range sorted {
		n := synthName(o.name)
		x.Write(n[:])
	}
	for range sorted {
		binary.Write(&x, binary.BigEndian, uint32(0)) // CRCs: not checked
	}
	for i, o := range sorted {
		if big64 {
			binary.Write(&x, binary.BigEndian, uint32(0x8000_0000|i))
		} else {
			binary.Write(&x, binary.BigEndian, uint32(o.off))
		}
	}
	if big64 {
		for _, o := range sorted {
			binary.Write(&x, binary.BigEndian, uint64(o.off))
		}
	}
	x.Write(sum[:])
	isum := sha1.Sum(x.Bytes())
	x.Write(isum[:])
	return p.Bytes(), x.Bytes()
}

// writePack puts a pack and its index in a new directory and returns it.
func writePack(t testing.TB, packData, idxData []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pack-1.pack"), packData, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pack-1.idx"), idxData, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// deltaData encodes a delta: source and target sizes, then the instructions as given.
func deltaData(src, dst int, ops ...[]byte) []byte {
	var b []byte
	for _, v := range []int{src, dst} {
		for v >= 0x80 {
			b = append(b, byte(v&0x7f|0x80))
			v >>= 7
		}
		b = append(b, byte(v))
	}
	for _, op := range ops {
		b = append(b, op...)
	}
	return b
}

// copyOp copies size bytes at off of the base (both below 256 here, size non-zero).
func copyOp(off, size byte) []byte { return []byte{0x80 | 0x01 | 0x10, off, size} }

// insertOp inserts s.
func insertOp(s string) []byte { return append([]byte{byte(len(s))}, s...) }
