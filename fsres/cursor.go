package fsres

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A cursor marks where a resources/list page ended: the last path listed in
// the root at index Root. On the wire it is base64url(payload || mac), where
// payload = version, uvarint root index, 8 bytes of SHA-256(root URI), path,
// and mac = HMAC-SHA256(key, payload)[:16]. The root hash makes a cursor stale
// when the roots change; the MAC makes forged cursors fail.
type cursor struct {
	Root    int
	RootURI string
	Last    string // slash-separated path relative to the root
}

const (
	cursorVersion = 1
	cursorMACLen  = 16
	rootHashLen   = 8
)

var errInvalidCursor = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}

func (f *Files) encodeCursor(c cursor) string {
	b := []byte{cursorVersion}
	b = binary.AppendUvarint(b, uint64(c.Root))
	b = append(b, rootHash(c.RootURI)...)
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
	return cursor{Root: int(idx), RootURI: uris[idx], Last: string(rest[rootHashLen:])}, nil
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
