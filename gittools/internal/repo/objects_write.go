package repo

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/objfile"

	"github.com/grove-mcp/grove/gittools/internal/packread"
	"github.com/grove-mcp/grove/gittools/internal/packwrite"
)

// WriteBlobFrom stores the size bytes read from r as a loose blob, the way git writes one: hashed and
// compressed in one pass into a temporary file in the objects directory, then renamed to its name (or dropped
// when the object is already there). Memory stays at one buffer; ctx is checked between chunks; check, if not
// nil, sees every chunk and can refuse the content. r holding more or fewer than size bytes is an error.
func (s *objectStore) WriteBlobFrom(ctx context.Context, r io.Reader, size int64, check func([]byte) error) (plumbing.Hash, error) {
	if s.sha256 {
		return plumbing.ZeroHash, ErrReadOnlySHA256
	}
	objects := s.loose[0]
	tmp := "tmp_obj_" + rand.Text()[:12]
	f, err := objects.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("creating an object: %w", PathErr(err))
	}
	h, err := compressBlob(ctx, f, r, size, check)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = placeObject(objects, tmp, h)
	}
	if err != nil {
		objects.Remove(tmp)
		return plumbing.ZeroHash, err
	}
	return h, nil
}

// compressBlob writes the loose object of the size bytes from r to w and returns its hash.
func compressBlob(ctx context.Context, w io.Writer, r io.Reader, size int64, check func([]byte) error) (plumbing.Hash, error) {
	ow := objfile.NewWriter(w)
	if err := ow.WriteHeader(plumbing.BlobObject, size); err != nil {
		return plumbing.ZeroHash, err
	}
	buf := make([]byte, 64<<10)
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			ow.Close()
			return plumbing.ZeroHash, err
		}
		k, rerr := r.Read(buf)
		if n += int64(k); n > size {
			ow.Close()
			return plumbing.ZeroHash, errChanged
		}
		if check != nil {
			if err := check(buf[:k]); err != nil {
				ow.Close()
				return plumbing.ZeroHash, err
			}
		}
		if _, err := ow.Write(buf[:k]); err != nil {
			ow.Close()
			return plumbing.ZeroHash, err
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			ow.Close()
			return plumbing.ZeroHash, rerr
		}
	}
	if err := ow.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	if n != size {
		return plumbing.ZeroHash, errChanged
	}
	return ow.Hash(), nil
}

// errChanged is the error for a file whose size changed while it was being stored.
var errChanged = errors.New("the file changed while it was being stored; try again")

// placeObject renames the finished temporary object tmp to its name for h, unless h is already stored.
func placeObject(objects *os.Root, tmp string, h plumbing.Hash) error {
	hex := h.String()
	name := filepath.Join(hex[:2], hex[2:])
	if _, err := objects.Lstat(name); err == nil {
		return objects.Remove(tmp)
	}
	if err := objects.Mkdir(hex[:2], 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("storing object %s: %w", hex[:ShortLen], PathErr(err))
	}
	if err := objects.Rename(tmp, name); err != nil {
		return fmt.Errorf("storing object %s: %w", hex[:ShortLen], PathErr(err))
	}
	return nil
}

// MaxPackedObject is the largest object WritePack takes.
const MaxPackedObject = largeObject

// WritePack stores objs as one pack with its index in objects/pack, the way git writes a pack: each file
// written whole under a temporary name and renamed into place, the index last, so that no reader finds an
// index without its pack. Every reader of rp's objects sees the new pack at once, and rp does not reopen its
// storage for it. No fsync: the pack stands in for loose objects, which git does not sync by default either.
// Objects over largeObject must be stored loose (go-git streams those, and does not know this pack).
func (rp *Repo) WritePack(objs []packwrite.Object) error {
	s := rp.Store
	if s.sha256 {
		return ErrReadOnlySHA256
	}
	for _, o := range objs {
		if len(o.Data) > largeObject {
			return fmt.Errorf("packing a %s of %d bytes: over the %d bytes packed objects may hold", o.Type, len(o.Data), largeObject)
		}
	}
	p, err := packwrite.Encode(objs)
	if err != nil {
		return err
	}
	dir := filepath.Join("objects", "pack")
	before := statStamp(s.common, dir)
	if err := s.common.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("creating the pack directory: %w", PathErr(err))
	}
	packs, err := s.common.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("opening the pack directory: %w", PathErr(err))
	}
	defer packs.Close()
	for _, f := range []struct {
		ext  string
		data []byte
	}{{".pack", p.Pack}, {".idx", p.Index}} {
		if err := writeWhole(packs, p.Name+f.ext, f.data); err != nil {
			return err
		}
	}
	for _, r := range append([]*packread.Reader{s.packs}, s.ahead[:]...) {
		if r != nil {
			if err := r.Add(p.Name); err != nil {
				return fmt.Errorf("reading the new pack %s: %w", p.Name, err)
			}
		}
	}
	if rp.stamp.packs == before {
		rp.stamp.packs = statStamp(s.common, dir)
	}
	return nil
}

// writeWhole writes data to name in dir under a temporary name first, then renames it into place.
func writeWhole(dir *os.Root, name string, data []byte) error {
	tmp := "tmp_pack_" + rand.Text()[:12]
	f, err := dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, PathErr(err))
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = dir.Rename(tmp, name)
	}
	if err != nil {
		dir.Remove(tmp)
		return fmt.Errorf("writing %s: %w", name, PathErr(err))
	}
	return nil
}
