package repo

// SHA-256 repositories (extensions.objectFormat = sha256; git's hash-function-transition document) name objects
// with 32 bytes, where go-git v5's plumbing.Hash holds 20, fixed when go-git is built. grove reads them by calling
// each object by the first 20 bytes of its name, its key. The object store finds an object by its key (pack
// indexes are sorted by name, and a loose object's file name begins with the key's hex) and rewrites the names
// inside the object to keys: the 32-byte names of tree entries, the hex of a commit's tree and parents and of a
// tag's object. go-git and grove's own tree and commit readers then see the layout they know; refs and the index
// are read with their names cut to keys too. Where a whole name is shown (git_log, git_blame, git_show), FullHash
// restores it. Two objects whose names share 20 bytes would take some 2^80 tries to make.
//
// Such a repository is read-only: go-git v5 writes SHA-1 objects only (see Writable).

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/packread"
)

const (
	keyLen    = len(plumbing.Hash{}) // 20: what go-git holds of any object name
	sha256Len = 32
	// maxLooseScan bounds the entries of one loose-object directory looked through for a key (git's own
	// repositories keep a few hundred there before gc packs them).
	maxLooseScan = 1 << 20
	// maxNames bounds the whole names remembered by fullName: a blame names at most a few thousand commits.
	maxNames = 1 << 14
)

// ErrReadOnlySHA256 is what every write tool says in a SHA-256 repository.
var ErrReadOnlySHA256 = errors.New("read-only: SHA-256 object format; go-git v5 writes SHA-1 only")

// hashLenOf returns the length of object names in the repository whose config (the common dir's) is data: 32
// with extensions.objectFormat = sha256 (format version 1), else 20. A config that could not be read is left to
// Config, which refuses it with the reason.
func hashLenOf(data []byte, err error) int {
	if err != nil {
		return keyLen
	}
	cfg, err := config.ReadConfig(bytes.NewReader(data))
	if err != nil || cfg.Raw.Section("core").Options.Get("repositoryformatversion") != "1" {
		return keyLen
	}
	if strings.EqualFold(cfg.Raw.Section("extensions").Options.Get("objectformat"), "sha256") {
		return sha256Len
	}
	return keyLen
}

// SHA256 reports whether the repository names its objects with SHA-256.
func (rp *Repo) SHA256() bool { return rp.Store != nil && rp.Store.sha256 }

// Writable is nil when the write tools may change the repository: not in a SHA-256 one (ErrReadOnlySHA256).
func (rp *Repo) Writable() error {
	if rp.SHA256() {
		return ErrReadOnlySHA256
	}
	return nil
}

// FullHash is the whole name of object h in hex: h itself in a SHA-1 repository, the 32-byte name h is the key
// of in a SHA-256 one (h's hex when no object has that key).
func (rp *Repo) FullHash(h plumbing.Hash) string {
	if !rp.SHA256() || h.IsZero() {
		return h.String()
	}
	if full, ok := rp.Store.fullName(h); ok {
		return full
	}
	return h.String()
}

// Summary is e.Summary() with whole names (see FullHash).
func (rp *Repo) Summary(e *CachedCommit) CommitInfo {
	if !rp.SHA256() {
		return e.Summary()
	}
	return rp.CommitInfo(e.C)
}

// CommitInfo is NewCommitInfo(c) with whole names (see FullHash).
func (rp *Repo) CommitInfo(c *object.Commit) CommitInfo {
	ci := NewCommitInfo(c)
	if !rp.SHA256() {
		return ci
	}
	ci.Hash = rp.FullHash(c.Hash)
	for i, p := range c.ParentHashes {
		ci.Parents[i] = rp.FullHash(p)
	}
	return ci
}

// HashBlob is the name of a blob holding data, as the repository names objects (cut to a key, see above).
func (rp *Repo) HashBlob(data []byte) plumbing.Hash {
	h := rp.blobHasher(int64(len(data)))
	h.Write(data)
	return keyOf(h.Sum(nil))
}

// HashReader computes the name of a blob of the size bytes r holds, in chunks, checking ctx; r holding more
// or fewer bytes (a file changing while it is read) is an error.
func (rp *Repo) HashReader(ctx context.Context, r io.Reader, size int64) (plumbing.Hash, error) {
	h := rp.blobHasher(size)
	n, err := io.CopyBuffer(h, CtxReader{Ctx: ctx, R: io.LimitReader(r, size+1)}, make([]byte, 64<<10))
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if n != size {
		return plumbing.ZeroHash, errors.New("file changed while it was read")
	}
	return keyOf(h.Sum(nil)), nil
}

// blobHasher is the repository's hash function, fed the header of a blob of size bytes.
func (rp *Repo) blobHasher(size int64) hash.Hash {
	h := sha1.New()
	if rp.SHA256() {
		h = sha256.New()
	}
	fmt.Fprintf(h, "blob %d\x00", size)
	return h
}

func keyOf(name []byte) (h plumbing.Hash) {
	copy(h[:], name)
	return h
}

// object256 reads the object whose key is h from the packs or a loose file, its names rewritten to keys.
// A blob over maxObjectBytes comes back as an oversized object, whose size readers check before they read it
// (ReadBlobCapped) and whose content is refused: there is no go-git reader to stream it.
func (s *objectStore) object256(h plumbing.Hash) (plumbing.EncodedObject, error) {
	typ, data, err := s.packs.Read(h, func(packread.Type) int64 { return maxObjectBytes })
	if errors.Is(err, packread.ErrNotFound) {
		var t plumbing.ObjectType
		t, data, err = s.loose256(h)
		typ = packread.Type(t)
	}
	var tl *packread.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, packread.ErrNotFound):
		return nil, plumbing.ErrObjectNotFound
	case errors.As(err, &tl) && tl.Type == packread.Blob:
		return &oversized{hash: h, size: tl.Size}, nil
	case errors.As(err, &tl):
		return nil, refusedObject(plumbing.ObjectType(tl.Type), h, tl.Size)
	case err != nil:
		return nil, fmt.Errorf("reading object %s: %w", h.String()[:ShortLen], err)
	}
	if data, err = rekey(plumbing.ObjectType(typ), data); err != nil {
		return nil, fmt.Errorf("reading object %s: %w", h.String()[:ShortLen], err)
	}
	o := &packedObj{hash: h, typ: plumbing.ObjectType(typ), data: data}
	if o.typ != plumbing.BlobObject {
		s.cache.Put(o)
	}
	return o, nil
}

// loose256 reads the loose object whose key is h, refusing one over maxObjectBytes.
func (s *objectStore) loose256(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	name, dir, err := s.looseName(h)
	if err != nil {
		return 0, nil, err
	}
	f, err := gitfmt.OpenRegular(dir, name)
	if err != nil {
		return 0, nil, err
	}
	lo := &looseObj{dir: dir, name: name, hash: h}
	r, err := lo.open(f)
	if err != nil {
		return 0, nil, err
	}
	defer r.Close()
	if lo.size > maxObjectBytes {
		return 0, nil, &packread.TooLargeError{Type: packread.Type(lo.typ), Size: lo.size, Limit: maxObjectBytes}
	}
	data := make([]byte, lo.size)
	if _, err := io.ReadFull(r, data); err != nil {
		return 0, nil, inflateErr(err)
	}
	if _, err := r.Read(make([]byte, 1)); err != io.EOF {
		return 0, nil, errInflated
	}
	return lo.typ, data, nil
}

// looseName finds the file of the loose object whose key is h ("ab/cdef…", 62 hex digits after the
// directory) and the objects directory holding it; fs.ErrNotExist when there is none.
func (s *objectStore) looseName(h plumbing.Hash) (string, *os.Root, error) {
	key := h.String()
	for _, dir := range s.loose {
		d, err := dir.OpenFile(key[:2], os.O_RDONLY|gitfmt.OpenNoBlock, 0) // never wait on a FIFO
		if err != nil {
			continue
		}
		name, err := findPrefix(d, key[2:])
		d.Close()
		if err == nil {
			return filepath.Join(key[:2], name), dir, nil
		}
	}
	return "", nil, fs.ErrNotExist
}

// findPrefix looks through the directory d, at most maxLooseScan entries, for the name of a loose SHA-256
// object that begins with prefix.
func findPrefix(d fs.ReadDirFile, prefix string) (string, error) {
	for seen := 0; seen < maxLooseScan; {
		ents, err := d.ReadDir(256)
		for _, e := range ents {
			if n := e.Name(); len(n) == 2*sha256Len-2 && strings.HasPrefix(n, prefix) && IsHex(n) {
				return n, nil
			}
		}
		seen += len(ents)
		if err != nil {
			break
		}
	}
	return "", fs.ErrNotExist
}

// fullName is the whole hex name of the object whose key is h. Caller holds the repository's lock.
func (s *objectStore) fullName(h plumbing.Hash) (string, bool) {
	if full, ok := s.names[h]; ok {
		return full, true
	}
	var full string
	if name, ok := s.packs.Full(h[:]); ok {
		full = hex.EncodeToString(name)
	} else if name, _, err := s.looseName(h); err == nil {
		full = strings.Replace(name, string(filepath.Separator), "", 1)
	} else {
		return "", false
	}
	if s.names == nil || len(s.names) >= maxNames {
		s.names = map[plumbing.Hash]string{}
	}
	s.names[h] = full
	return full, true
}

// rekey rewrites the object names inside an object of a SHA-256 repository to keys (see the top of the file).
func rekey(t plumbing.ObjectType, data []byte) ([]byte, error) {
	switch t {
	case plumbing.TreeObject:
		return rekeyTree(data)
	case plumbing.CommitObject:
		return rekeyHeader(data, "tree", "parent"), nil
	case plumbing.TagObject:
		return rekeyHeader(data, "object"), nil
	}
	return data, nil
}

// rekeyTree rewrites every entry "<mode> <name>\0<32-byte name>" to end in the 20-byte key.
func rekeyTree(data []byte) ([]byte, error) {
	out := make([]byte, 0, len(data))
	for len(data) > 0 {
		nul := bytes.IndexByte(data, 0)
		if nul < 0 || nul+1+sha256Len > len(data) {
			return nil, errors.New("malformed tree")
		}
		out = append(out, data[:nul+1+keyLen]...)
		data = data[nul+1+sha256Len:]
	}
	return out, nil
}

// rekeyHeader cuts the 64-digit hex names of the header lines keys (before the first blank line) to 40 digits.
func rekeyHeader(data []byte, keys ...string) []byte {
	out := make([]byte, 0, len(data))
	for len(data) > 0 {
		line, rest, found := bytes.Cut(data, []byte{'\n'})
		if len(line) == 0 {
			break
		}
		k, v, _ := bytes.Cut(line, []byte{' '})
		for _, want := range keys {
			if string(k) == want && len(v) == 2*sha256Len {
				line = append(append(k[:len(k):len(k)], ' '), v[:2*keyLen]...)
			}
		}
		out = append(out, line...)
		if found {
			out = append(out, '\n')
		}
		data = rest
	}
	return append(out, data...)
}

// SetEncodedObject stores o, except in a SHA-256 repository, where go-git would name it with SHA-1.
func (s *objectStore) SetEncodedObject(o plumbing.EncodedObject) (plumbing.Hash, error) {
	if s.sha256 {
		return plumbing.ZeroHash, ErrReadOnlySHA256
	}
	return s.Storage.SetEncodedObject(o)
}

// oversized is a SHA-256 blob over maxObjectBytes: its size is known, its content is not read.
type oversized struct {
	hash plumbing.Hash
	size int64
}

func (o *oversized) Hash() plumbing.Hash         { return o.hash }
func (o *oversized) Type() plumbing.ObjectType   { return plumbing.BlobObject }
func (o *oversized) Size() int64                 { return o.size }
func (o *oversized) SetType(plumbing.ObjectType) {}
func (o *oversized) SetSize(int64)               {}
func (o *oversized) Writer() (io.WriteCloser, error) {
	return nil, errors.New("objects are read-only")
}

// Reader refuses the content, saying the limit.
func (o *oversized) Reader() (io.ReadCloser, error) {
	return nil, refusedObject(plumbing.BlobObject, o.hash, o.size)
}
