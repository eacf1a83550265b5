package fsres

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"math"
	"strings"

	"github.com/grove-mcp/grove/fsres/internal/dirstream"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A cursor marks where a resources/list page ended: the last path listed in
// the root at index Root, and, for every directory on the way to it that is
// streamed in the file system's order (see hugedir.go), the position to go on
// from. On the wire it is base64url(payload || mac), where payload = version,
// uvarint root index, 8 bytes of SHA-256(root URI), uvarint number of
// streamed directories, for each a uvarint depth (0 for the root's top, 1 for
// a directory in it, ...) and a uvarint d_off, then the path; and mac =
// HMAC-SHA256(key, payload)[:16]. The root hash makes a cursor stale when
// the roots change; the MAC makes forged cursors fail; the streamed
// directories must be distinct ancestors of the path, outermost first.
type cursor struct {
	Root    int
	RootURI string
	Last    string  // slash-separated path relative to the root
	Streams []frame // the streamed directories holding Last, outermost first
}

// A frame is a streamed directory being walked and the d_off of its entry
// being walked (the position just after it).
type frame struct {
	dir string // relative to the root: "." for the root's top
	off int64
}

const (
	cursorVersion = 2
	maxFrames     = 64 // streamed directories in one cursor: deeper ones are listed sorted
	cursorMACLen  = 16
	rootHashLen   = 8
)

var errInvalidCursor = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}

func (f *Files) encodeCursor(c cursor) string {
	b := []byte{cursorVersion}
	b = binary.AppendUvarint(b, uint64(c.Root))
	b = append(b, rootHash(c.RootURI)...)
	b = binary.AppendUvarint(b, uint64(len(c.Streams)))
	for _, fr := range c.Streams {
		b = binary.AppendUvarint(b, uint64(depth(fr.dir)))
		b = binary.AppendUvarint(b, uint64(fr.off))
	}
	b = append(b, c.Last...)
	b = append(b, f.mac(b)...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor checks s against the MAC and against uris, the roots in force.
func (f *Files) decodeCursor(s string, uris []string) (cursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) < 1+1+rootHashLen+cursorMACLen {
		return cursor{}, errInvalidCursor
	}
	payload, mac := b[:len(b)-cursorMACLen], b[len(b)-cursorMACLen:]
	if !hmac.Equal(mac, f.mac(payload)) || payload[0] != cursorVersion {
		return cursor{}, errInvalidCursor
	}
	idx, n := binary.Uvarint(payload[1:])
	rest := payload[1+max(n, 0):]
	if n <= 0 || idx >= uint64(len(uris)) || len(rest) < rootHashLen {
		return cursor{}, errInvalidCursor
	}
	if !hmac.Equal(rest[:rootHashLen], rootHash(uris[idx])) {
		return cursor{}, errInvalidCursor // the roots changed since
	}
	rest = rest[rootHashLen:]
	nf, n := binary.Uvarint(rest)
	if n <= 0 || nf > maxFrames {
		return cursor{}, errInvalidCursor
	}
	rest = rest[n:]
	depths := make([]uint64, nf)
	offs := make([]int64, nf)
	for i := range depths {
		d, n := binary.Uvarint(rest)
		if n <= 0 {
			return cursor{}, errInvalidCursor
		}
		rest = rest[n:]
		off, n := binary.Uvarint(rest)
		if n <= 0 || off > math.MaxInt64 {
			return cursor{}, errInvalidCursor
		}
		rest = rest[n:]
		depths[i], offs[i] = d, int64(off)
	}
	c := cursor{Root: int(idx), RootURI: uris[idx], Last: string(rest)}
	if nf > 0 && !dirstream.Supported {
		return cursor{}, errInvalidCursor // this build never streams
	}
	parts := strings.Split(c.Last, "/")
	for i, d := range depths {
		// Each a distinct proper ancestor of Last, outermost first.
		if c.Last == "" || d >= uint64(len(parts)) || i > 0 && d <= depths[i-1] {
			return cursor{}, errInvalidCursor
		}
		dir := "."
		if d > 0 {
			dir = strings.Join(parts[:d], "/")
		}
		c.Streams = append(c.Streams, frame{dir: dir, off: offs[i]})
	}
	return c, nil
}

// depth is the number of names in the relative directory path dir.
func depth(dir string) int {
	if dir == "." {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

func (f *Files) mac(payload []byte) []byte {
	h := hmac.New(sha256.New, f.key)
	h.Write(payload)
	return h.Sum(nil)[:cursorMACLen]
}

func rootHash(uri string) []byte {
	sum := sha256.Sum256([]byte(uri))
	return sum[:rootHashLen]
}
