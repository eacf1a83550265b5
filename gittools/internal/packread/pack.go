package packread

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zlib"
)

// mapFiles says whether packs and indexes are mapped into memory where the system can; tests turn it off
// to exercise the pread path other systems take.
var mapFiles = true

// packHeader is a pack's "PACK", version and object count.
const packHeader = 12

// pack is one open pack file with its index.
type pack struct {
	id    int
	f     *os.File
	name  string
	size  int64
	end   int64 // where object data ends: the trailing checksum starts
	mtime int64
	idx   *idx
	data  []byte // the pack mapped into memory (nil: read through the window)
}

// close unmaps and closes the pack. Nothing may refer to its mapping afterwards: what Read returns and
// the cache hold is always copied out of it.
func (p *pack) close() {
	unmap(p.data)
	p.data = nil
	p.idx.close()
	p.f.Close()
}

// openPack opens base.idx and base.pack and checks that they belong together: the object counts agree
// and the pack's trailing checksum is the one the index names.
func openPack(root *os.Root, base string, hashLen int) (*pack, error) {
	x, err := readIdx(root, base+".idx", hashLen)
	if err != nil {
		return nil, err
	}
	name := base + ".pack"
	f, err := root.Open(name)
	if err != nil {
		x.close()
		return nil, ErrNotFound // a pack removed after a repack: read elsewhere
	}
	p := &pack{f: f, name: name, idx: x}
	if err := p.check(); err != nil {
		f.Close()
		x.close()
		return nil, err
	}
	return p, nil
}

func (p *pack) check() error {
	bad := func(reason string) error { return &CorruptError{File: p.name, Reason: reason} }
	fi, err := p.f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return bad("not a regular file")
	}
	sumLen := p.idx.hashLen
	p.size, p.end, p.mtime = fi.Size(), fi.Size()-int64(sumLen), fi.ModTime().UnixNano()
	if p.size < packHeader+int64(sumLen) {
		return bad("truncated pack")
	}
	var head [packHeader]byte
	if _, err := p.f.ReadAt(head[:], 0); err != nil {
		return bad("truncated pack")
	}
	if string(head[:4]) != "PACK" {
		return bad("no pack signature")
	}
	if v := binary.BigEndian.Uint32(head[4:8]); v != 2 && v != 3 {
		return ErrNotFound
	}
	if int(binary.BigEndian.Uint32(head[8:12])) != p.idx.n {
		return bad("pack and index count different objects")
	}
	sum := make([]byte, sumLen)
	if _, err := p.f.ReadAt(sum, p.end); err != nil {
		return bad("truncated pack")
	}
	if !bytes.Equal(sum, p.idx.packChecksum()) {
		return ErrNotFound // the index describes another pack (a repack replaced it): read elsewhere
	}
	p.idx.packSz = p.size
	if mapFiles {
		p.data = mapFile(p.f, p.size)
	}
	return nil
}

// objHeader is an object's entry header in a pack.
type objHeader struct {
	typ     Type
	size    int64 // of the content, or of the delta data for a delta
	dataOff int64 // where the compressed data starts
	baseOff int64 // a delta's base
}

// header parses the object header at off: type and size in a varint, then for OFS_DELTA the base's
// distance back, for REF_DELTA the base's name (looked up in the same pack).
func (r *Reader) header(p *pack, off int64) (objHeader, error) {
	bad := func(reason string) (objHeader, error) {
		return objHeader{}, &CorruptError{File: p.name, Reason: fmt.Sprintf("object at %d: %s", off, reason)}
	}
	c := cursor{r: r, p: p, pos: off}
	b, err := c.ReadByte()
	if err != nil {
		return bad("truncated header")
	}
	h := objHeader{typ: Type(b >> 4 & 7), size: int64(b & 0x0f)}
	for shift := 4; b&0x80 != 0; shift += 7 {
		if shift > 56 {
			return bad("size too long")
		}
		if b, err = c.ReadByte(); err != nil {
			return bad("truncated header")
		}
		h.size |= int64(b&0x7f) << shift
	}
	switch h.typ {
	case Commit, Tree, Blob, Tag:
	case ofsDelta:
		if b, err = c.ReadByte(); err != nil {
			return bad("truncated header")
		}
		back := int64(b & 0x7f)
		for b&0x80 != 0 {
			if back >= 1<<48 {
				return bad("base offset too long")
			}
			if b, err = c.ReadByte(); err != nil {
				return bad("truncated header")
			}
			back = (back+1)<<7 | int64(b&0x7f)
		}
		if back <= 0 || back > off-packHeader {
			return bad("delta base outside the pack")
		}
		h.baseOff = off - back
	case refDelta:
		var buf [sha256Len]byte
		base := buf[:p.idx.hashLen]
		if _, err := io.ReadFull(&c, base); err != nil {
			return bad("truncated header")
		}
		bo, ok, err := p.idx.find(base)
		if err != nil {
			return objHeader{}, err
		}
		if !ok {
			return objHeader{}, ErrNotFound // a base in another pack: read elsewhere
		}
		h.baseOff = bo
	default:
		return bad(fmt.Sprintf("unknown object type %d", h.typ))
	}
	h.dataOff = c.pos
	return h, nil
}

// resolve reads the object at off: it follows the delta chain down to a whole object or a cached one,
// then applies the deltas back up, caching each result.
func (r *Reader) resolve(p *pack, off int64, limit func(Type) int64) (Type, []byte, error) {
	type link struct{ off, dataOff, size int64 }
	var chain []link
	var typ Type
	var data []byte
	for cur := off; ; {
		if e, ok := r.cache.get(key{p.id, cur}); ok {
			typ, data = e.typ, e.data
			break
		}
		if len(chain) >= MaxChain {
			return 0, nil, &CorruptError{File: p.name, Reason: fmt.Sprintf("delta chain longer than %d", MaxChain)}
		}
		h, err := r.header(p, cur)
		if err != nil {
			return 0, nil, err
		}
		if h.typ == ofsDelta || h.typ == refDelta {
			chain = append(chain, link{cur, h.dataOff, h.size})
			cur = h.baseOff
			continue
		}
		if lim := limit(h.typ); h.size > lim {
			return 0, nil, &TooLargeError{Type: h.typ, Size: h.size, Limit: lim}
		}
		if data, err = r.inflate(p, h.dataOff, h.size); err != nil {
			return 0, nil, err
		}
		typ = h.typ
		r.cache.put(key{p.id, cur}, typ, data)
		break
	}
	lim := limit(typ)
	for i := len(chain) - 1; i >= 0; i-- {
		l := chain[i]
		out, err := r.patch(p, l.dataOff, l.size, data, typ, lim)
		if err != nil {
			return 0, nil, err
		}
		data = out
		r.cache.put(key{p.id, l.off}, typ, data)
	}
	return typ, data, nil
}

// inflater returns the shared zlib reader, reset to the compressed stream at off.
// A mapped pack is read through a *bytes.Reader: the inflater decodes from one with a loop specialised to
// it, markedly faster than through an io.ByteReader interface (a third of git_blame's first call on a deep
// history is inflating).
func (r *Reader) inflater(p *pack, off int64) (io.Reader, error) {
	var c io.Reader
	if p.data != nil {
		if off < 0 || off > p.end {
			return nil, io.ErrUnexpectedEOF
		}
		r.mapped.Reset(p.data[off:p.end])
		c = &r.mapped
	} else {
		c = &cursor{r: r, p: p, pos: off}
	}
	if r.zr == nil {
		zr, err := zlib.NewReader(c)
		if err != nil {
			return nil, err
		}
		r.zr = zr
		return zr, nil
	}
	if err := r.zr.(zlib.Resetter).Reset(c, nil); err != nil {
		return nil, err
	}
	return r.zr, nil
}

// inflate reads the compressed data at off, which must inflate to exactly size bytes.
func (r *Reader) inflate(p *pack, off, size int64) ([]byte, error) {
	bad := &CorruptError{File: p.name, Reason: fmt.Sprintf("data at %d does not inflate to its %d bytes", off, size)}
	zr, err := r.inflater(p, off)
	if err != nil {
		return nil, bad
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(zr, data); err != nil {
		return nil, bad
	}
	if !atEnd(zr) {
		return nil, bad
	}
	return data, nil
}

// atEnd reports whether the stream has ended cleanly (its checksum verified).
func atEnd(zr io.Reader) bool {
	var one [1]byte
	n, err := zr.Read(one[:])
	for n == 0 && err == nil {
		n, err = zr.Read(one[:])
	}
	return n == 0 && errors.Is(err, io.EOF)
}

// patch applies the delta whose compressed data (size bytes inflated) is at off to base. Delta data is
// the base's size and the result's size as little-endian base-128 varints, then instructions: a byte with
// the top bit set copies a range of the base (its low bits say which offset and size bytes follow; size 0
// means 0x10000), a byte 1..127 inserts that many following bytes, 0 is reserved.
func (r *Reader) patch(p *pack, off, size int64, base []byte, typ Type, lim int64) ([]byte, error) {
	bad := func(reason string) error {
		return &CorruptError{File: p.name, Reason: fmt.Sprintf("delta at %d: %s", off, reason)}
	}
	zr, err := r.inflater(p, off)
	if err != nil {
		return nil, bad("bad compressed data")
	}
	lr := &limitedReader{r: zr, left: size}
	if r.br == nil {
		r.br = bufio.NewReaderSize(lr, 4096)
	} else {
		r.br.Reset(lr)
	}
	br := r.br
	src, err := readVarint(br)
	if err != nil {
		return nil, bad("truncated")
	}
	dst, err := readVarint(br)
	if err != nil {
		return nil, bad("truncated")
	}
	if src != int64(len(base)) {
		return nil, bad("base size differs from the delta's source size")
	}
	if dst > lim {
		return nil, &TooLargeError{Type: typ, Size: dst, Limit: lim}
	}
	out := make([]byte, dst)
	n := int64(0)
	for n < dst {
		op, err := br.ReadByte()
		if err != nil {
			return nil, bad("truncated")
		}
		switch {
		case op&0x80 != 0:
			var cOff, cLen int64
			for i := range 4 {
				if op&(1<<i) != 0 {
					b, err := br.ReadByte()
					if err != nil {
						return nil, bad("truncated")
					}
					cOff |= int64(b) << (8 * i)
				}
			}
			for i := range 3 {
				if op&(0x10<<i) != 0 {
					b, err := br.ReadByte()
					if err != nil {
						return nil, bad("truncated")
					}
					cLen |= int64(b) << (8 * i)
				}
			}
			if cLen == 0 {
				cLen = 0x10000
			}
			if cOff+cLen > int64(len(base)) {
				return nil, bad("copy outside the base")
			}
			if cLen > dst-n {
				return nil, bad("result longer than its declared size")
			}
			n += int64(copy(out[n:], base[cOff:cOff+cLen]))
		case op != 0:
			k := int64(op)
			if k > dst-n {
				return nil, bad("result longer than its declared size")
			}
			if _, err := io.ReadFull(br, out[n:n+k]); err != nil {
				return nil, bad("truncated")
			}
			n += k
		default:
			return nil, bad("reserved instruction 0")
		}
	}
	if br.Buffered() != 0 {
		return nil, bad("data after the last instruction")
	}
	if lr.left != 0 || !atEnd(zr) {
		return nil, bad("delta data size differs from its header")
	}
	return out, nil
}

// readVarint reads a delta header size: 7 bits a byte, least significant first.
func readVarint(br *bufio.Reader) (int64, error) {
	var v int64
	for shift := 0; ; shift += 7 {
		if shift > 56 {
			return 0, errors.New("varint too long")
		}
		b, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		v |= int64(b&0x7f) << shift
		if b&0x80 == 0 {
			return v, nil
		}
	}
}

// limitedReader ends a delta's inflated data at its declared size; data past it shows as left == 0 with
// the inflater not at its end.
type limitedReader struct {
	r    io.Reader
	left int64
}

func (l *limitedReader) Read(b []byte) (int, error) {
	if l.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(b)) > l.left {
		b = b[:l.left]
	}
	n, err := l.r.Read(b)
	l.left -= int64(n)
	if err == io.EOF && l.left > 0 {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// cursor reads a pack from pos through the reader's window: one positioned read brings in window bytes,
// so the headers and compressed data of nearby objects cost no further system call. It never reads the
// trailing checksum or past it.
type cursor struct {
	r   *Reader
	p   *pack
	pos int64
}

func (c *cursor) fill() error {
	if c.pos >= c.p.end {
		return io.EOF
	}
	r := c.r
	if r.winPack == c.p && c.pos >= r.winOff && c.pos < r.winOff+int64(len(r.win)) {
		return nil
	}
	if cap(r.win) < window {
		r.win = make([]byte, window)
	}
	n := min(int64(window), c.p.end-c.pos)
	k, err := c.p.f.ReadAt(r.win[:n], c.pos)
	r.win, r.winOff, r.winPack = r.win[:k], c.pos, c.p
	if k == 0 {
		r.winPack = nil
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	return nil
}

func (c *cursor) ReadByte() (byte, error) {
	if d := c.p.data; d != nil {
		if c.pos >= c.p.end {
			return 0, io.EOF
		}
		b := d[c.pos]
		c.pos++
		return b, nil
	}
	if err := c.fill(); err != nil {
		return 0, err
	}
	b := c.r.win[c.pos-c.r.winOff]
	c.pos++
	return b, nil
}

func (c *cursor) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	if d := c.p.data; d != nil {
		if c.pos >= c.p.end {
			return 0, io.EOF
		}
		n := copy(b, d[c.pos:c.p.end])
		c.pos += int64(n)
		return n, nil
	}
	if err := c.fill(); err != nil {
		return 0, err
	}
	n := copy(b, c.r.win[c.pos-c.r.winOff:])
	c.pos += int64(n)
	return n, nil
}
