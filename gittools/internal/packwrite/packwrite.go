// Package packwrite encodes whole objects as one pack file and its version 2 index, as gitformat-pack(5)
// describes them: no deltas, every object zlib-compressed at level 1 (git's core.looseCompression default,
// for the loose objects a pack of a few new objects stands in for). Writing the files is the caller's job.
//
//	p, err := packwrite.Encode([]packwrite.Object{{Type: packwrite.Tree, Data: data}})
//	// p.Pack and p.Index are the files' contents; p.Name is "pack-<checksum>", the name git gives them
//
// It is meant for the few hundred trees and small blobs a merge creates: everything is built in memory.
package packwrite

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"strconv"
)

// Type is an object's type as a pack records it.
type Type byte

const (
	Commit Type = 1
	Tree   Type = 2
	Blob   Type = 3
	Tag    Type = 4
)

// String is the type's name in an object header ("tree").
func (t Type) String() string {
	switch t {
	case Commit:
		return "commit"
	case Tree:
		return "tree"
	case Blob:
		return "blob"
	case Tag:
		return "tag"
	}
	return "type " + strconv.Itoa(int(t))
}

// Object is one object to pack: its type and content.
type Object struct {
	Type Type
	Data []byte
}

// Name returns the object's SHA-1 name: the hash of "<type> <size>\x00" and its content.
func (o Object) Name() [20]byte {
	h := sha1.New()
	h.Write([]byte(o.Type.String() + " " + strconv.Itoa(len(o.Data)) + "\x00"))
	h.Write(o.Data)
	var n [20]byte
	h.Sum(n[:0])
	return n
}

// Packed is an encoded pack: the .pack and .idx contents, and the base name git gives the pair.
type Packed struct {
	Pack, Index []byte
	Name        string // "pack-" and the pack's checksum in hex
}

// MaxObjects bounds the objects of one pack (the index counts them in 32 bits, git in fewer in practice).
const MaxObjects = 1 << 24

// entry is an object's place in the pack, for the index.
type entry struct {
	name   [20]byte
	offset uint64
	crc    uint32
}

// Encode packs objs, which must be commits, trees, blobs or tags; an object listed twice is packed once.
func Encode(objs []Object) (*Packed, error) {
	if len(objs) > MaxObjects {
		return nil, fmt.Errorf("packing %d objects: more than %d", len(objs), MaxObjects)
	}
	var pack bytes.Buffer
	pack.WriteString("PACK")
	pack.Write([]byte{0, 0, 0, 2, 0, 0, 0, 0}) // version 2; the count is filled in below
	entries := make([]entry, 0, len(objs))
	seen := make(map[[20]byte]bool, len(objs))
	zw, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
	for _, o := range objs {
		if o.Type < Commit || o.Type > Tag {
			return nil, fmt.Errorf("packing an object of %s", o.Type)
		}
		name := o.Name()
		if seen[name] {
			continue
		}
		seen[name] = true
		start := pack.Len()
		pack.Write(objectHeader(o.Type, len(o.Data)))
		zw.Reset(&pack)
		zw.Write(o.Data) // writes to a bytes.Buffer do not fail
		if err := zw.Close(); err != nil {
			return nil, err
		}
		entries = append(entries, entry{name: name, offset: uint64(start), crc: crc32.ChecksumIEEE(pack.Bytes()[start:])})
	}
	data := pack.Bytes()
	binary.BigEndian.PutUint32(data[8:12], uint32(len(entries)))
	sum := sha1.Sum(data)
	pack.Write(sum[:])
	return &Packed{Pack: pack.Bytes(), Index: index(entries, sum), Name: "pack-" + hex.EncodeToString(sum[:])}, nil
}

// objectHeader is a packed object's type and size: the type in bits 4-6 of the first byte with the size's
// low 4 bits, then 7 more bits of the size per byte, the high bit of each byte saying another follows.
func objectHeader(t Type, size int) []byte {
	b := []byte{byte(t)<<4 | byte(size&0x0f)}
	for size >>= 4; size > 0; size >>= 7 {
		b[len(b)-1] |= 0x80
		b = append(b, byte(size&0x7f))
	}
	return b
}

// index is the version 2 index of entries in the pack whose checksum is sum.
func index(entries []entry, sum [20]byte) []byte {
	slices.SortFunc(entries, func(a, b entry) int { return bytes.Compare(a.name[:], b.name[:]) })
	var x bytes.Buffer
	x.Write([]byte{0xff, 't', 'O', 'c', 0, 0, 0, 2})
	var fanout [256]uint32
	for _, e := range entries {
		fanout[e.name[0]]++
	}
	var n uint32
	for i := range fanout {
		n += fanout[i]
		x.Write(binary.BigEndian.AppendUint32(nil, n))
	}
	for _, e := range entries {
		x.Write(e.name[:])
	}
	for _, e := range entries {
		x.Write(binary.BigEndian.AppendUint32(nil, e.crc))
	}
	var large []uint64
	for _, e := range entries {
		off := uint32(e.offset)
		if e.offset > math.MaxInt32 {
			off = 1<<31 | uint32(len(large))
			large = append(large, e.offset)
		}
		x.Write(binary.BigEndian.AppendUint32(nil, off))
	}
	for _, off := range large {
		x.Write(binary.BigEndian.AppendUint64(nil, off))
	}
	x.Write(sum[:])
	idxSum := sha1.Sum(x.Bytes())
	x.Write(idxSum[:])
	return x.Bytes()
}
