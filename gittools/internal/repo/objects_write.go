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
