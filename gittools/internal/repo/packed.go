package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/packread"
	"github.com/grove-mcp/grove/gittools/internal/patchtext"
)

// Packed objects are read by grove's own pack reader (packread) first: it binary-searches the .idx files
// where go-git v5 first builds a map of every object (some 90 ms and tens of MB on 200,000 objects), and it
// resolves deltas through a small cache keyed by pack offset, with no per-object allocation beyond the
// content. What it does not hold (objects of alternates, packs in a layout it does not read) and blobs over
// largeObject, which go-git streams, are read through go-git as before.

// errNotPacked says an object is left to the other readers.
var errNotPacked = errors.New("not read from the packs by grove")

// packLimit is the largest content the pack reader inflates for a type: blobs past largeObject are
// streamed by go-git, other objects past maxObjectBytes are refused.
func packLimit(t packread.Type) int64 {
	if t == packread.Blob {
		return largeObject
	}
	return maxObjectBytes
}

// packed reads h from the packs; errNotPacked when the pack reader leaves it to go-git.
func (s *objectStore) packed(h plumbing.Hash) (*packedObj, error) {
	typ, data, err := s.packs.Read(h, packLimit)
	var tl *packread.TooLargeError
	switch {
	case err == nil:
		return &packedObj{hash: h, typ: plumbing.ObjectType(typ), data: data}, nil
	case errors.Is(err, packread.ErrNotFound):
		return nil, errNotPacked
	case errors.As(err, &tl) && tl.Type == packread.Blob:
		return nil, errNotPacked
	case errors.As(err, &tl):
		return nil, refusedObject(plumbing.ObjectType(tl.Type), h, tl.Size)
	}
	return nil, fmt.Errorf("reading object %s: %w", h.String()[:ShortLen], err)
}

// refusedObject is the error for a commit, tree or tag over maxObjectBytes.
func refusedObject(t plumbing.ObjectType, h plumbing.Hash, size int64) error {
	return &gitfmt.RefusedFile{File: t.String() + " " + h.String()[:ShortLen],
		Reason: fmt.Sprintf("it is %s, over the %s limit grove reads for a %s", patchtext.SizeText(size), patchtext.SizeText(maxObjectBytes), t)}
}

// HasEncodedObject reports whether h is stored, asking the pack reader first.
func (s *objectStore) HasEncodedObject(h plumbing.Hash) error {
	if s.packs.Has(h) {
		return nil
	}
	if s.sha256 {
		_, err := s.EncodedObject(plumbing.AnyObject, h)
		return err
	}
	return s.Storage.HasEncodedObject(h)
}

// EncodedObjectSize returns the size of h's content.
func (s *objectStore) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	if s.sha256 {
		o, err := s.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return 0, err
		}
		return o.Size(), nil
	}
	if o, err := s.packed(h); err == nil {
		return o.Size(), nil
	} else if !errors.Is(err, errNotPacked) {
		return 0, err
	}
	return s.Storage.EncodedObjectSize(h)
}

// RawObject returns the content of object h of type t. It may be shared with the pack reader's cache:
// callers must not modify it. Commits, trees and tags are bounded by maxObjectBytes; use ReadBlobCapped
// for blobs.
func (rp *Repo) RawObject(t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	o, err := rp.Git.Storer.EncodedObject(t, h)
	if err != nil {
		return nil, err
	}
	if p, ok := o.(*packedObj); ok {
		return p.data, nil
	}
	if t == plumbing.BlobObject && o.Size() > maxObjectBytes {
		return nil, refusedObject(t, h, o.Size())
	}
	return ReadPrefix(o, o.Size())
}

// WarmPacks reads the pack indexes, so the first object read does not, and those of the read-ahead
// readers (see ReadAhead).
func (rp *Repo) WarmPacks() {
	if rp.Store != nil {
		_ = rp.Store.packs.Load() // packs it cannot read are left to go-git
		rp.warmAhead()
	}
}

// packedObj is an object the pack reader resolved; its content is shared with the reader's cache.
type packedObj struct {
	hash plumbing.Hash
	typ  plumbing.ObjectType
	data []byte
}

func (o *packedObj) Hash() plumbing.Hash         { return o.hash }
func (o *packedObj) Type() plumbing.ObjectType   { return o.typ }
func (o *packedObj) Size() int64                 { return int64(len(o.data)) }
func (o *packedObj) SetType(plumbing.ObjectType) {}
func (o *packedObj) SetSize(int64)               {}
func (o *packedObj) Writer() (io.WriteCloser, error) {
	return nil, errors.New("packed objects are read-only")
}
func (o *packedObj) Reader() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(o.data)), nil
}

// ReadAhead returns two pack readers of rp's objects, apart from the one the storage reads through, for
// goroutines that read ahead of an operation holding rp's lock (blame's prefetcher and chain reader): each has
// its own lock and cache, so neither waits for the operation's reads. They are opened once per storage
// and closed with it, so a second blame finds their indexes loaded and their caches warm (opening them per
// call made warm blames on small repositories slower than git). Only the holder of rp's lock may use them,
// and only until it releases it. Caller holds rp's lock.
func (rp *Repo) ReadAhead() [2]*packread.Reader {
	s := rp.Store
	if s.ahead[0] == nil {
		dir := filepath.Join("objects", "pack")
		s.ahead = [2]*packread.Reader{packread.OpenIn(s.common, dir), packread.OpenIn(s.common, dir)}
	}
	return s.ahead
}

// warmAhead loads the read-ahead readers' pack indexes (see ReadAhead).
func (rp *Repo) warmAhead() {
	for _, r := range rp.ReadAhead() {
		_ = r.Load() // packs it cannot read are read by the walk itself
	}
}
