package repo

// Reading objects with sizes known before their content. go-git v5.19.3 bounds what it inflates from packs by
// the size in the object's header, and with LargeObjectThreshold set it streams big packed objects instead of
// holding them; but it inflates a loose object whole into memory whatever its header says (a 300 MiB loose
// blob cost 1.3 GB of RSS to describe, and a header that lies about the size leaves nothing to stop a 4 GiB
// stream). So grove reads loose objects itself: header first, content through a reader that ends at exactly
// the header's size, small objects whole (and cached), big ones as a stream opened when someone reads them.
// Every object other than a blob is refused past maxObjectBytes before go-git decodes it, and blob contents
// are read into memory only through readBlobCapped, which checks the size first.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/grove-mcp/grove/gittools/internal/packread"
	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	gsync "github.com/go-git/go-git/v5/utils/sync"
)

const (
	// largeObject is the size above which an object is streamed when read rather than held in memory and
	// cached: loose ones by objectStore, packed ones by go-git (its LargeObjectThreshold).
	largeObject = 1 << 20
	// maxObjectBytes bounds commits, trees and tags (blobs are bounded by their readers): a tree of 32 MiB
	// lists some 400,000 entries, far beyond any real directory, and go-git decodes these whole.
	maxObjectBytes = 32 << 20
	// MaxConfigFile bounds a config file: .git/config and the user's global ones (real ones are a few KB).
	MaxConfigFile = 1 << 20
	// maxLooseHeader bounds a loose object's header ("commit 123\x00"): the longest type and a 19-digit size.
	maxLooseHeader = 32
)

// errInflated is the error for an object whose compressed stream holds more (or less) than its header says.
var errInflated = errors.New("object content does not match the size in its header (corrupt object)")

// objectStore is the storage every repository is opened on: go-git's filesystem storage, with loose objects
// read by grove and object and config sizes checked before anything is read (see the comment at the top).
type objectStore struct {
	*filesystem.Storage
	cache   cache.Object
	loose   []*os.Root               // the objects directory, then its alternates, recursively
	packs   *packread.Reader         // the objects directory's packs (see packed.go)
	ahead   [2]*packread.Reader      // the same packs, for reading ahead (see ReadAhead); nil until asked
	common  *os.Root                 // the common dir (holds config), pinned by the Repo: not closed here
	git     *os.Root                 // the git dir (holds config.worktree, for extensions.worktreeConfig), likewise
	shallow map[plumbing.Hash]bool   // the boundary commits of a shallow clone (see shallow.go)
	partial bool                     // a partial clone (extensions.partialClone): objects may be missing
	sha256  bool                     // objects are named by SHA-256, and found by key (see objectformat.go)
	names   map[plumbing.Hash]string // whole names found by fullName, at most maxNames
	opening *readConfig              // the config read while the store is opened, for Config until then
}

// newObjectStore opens the storage of rp, whose directories are pinned (dirs.go): objects, packs and
// alternates are opened through those handles and the root handles of rp's scope, never by path.
func newObjectStore(st *filesystem.Storage, c cache.Object, rp *Repo) (*objectStore, error) {
	common := rp.dirs.common.root
	cfg, cfgErr := readConfigFile(common, "config")
	hashLen := hashLenOf(cfg, cfgErr)
	s := &objectStore{Storage: st, cache: c, common: common, git: rp.dirs.git.root, shallow: readShallow(common),
		partial: isPartialClone(cfg, cfgErr), packs: packread.OpenInHash(common, filepath.Join("objects", "pack"), hashLen),
		sha256: hashLen == sha256Len, opening: &readConfig{data: cfg, err: cfgErr}}
	objects, err := common.OpenRoot("objects")
	if err == nil {
		err = s.addLoose(rp, objects, filepath.Join(rp.CommonDir, "objects"), 0)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// addLoose adds the opened objects directory r (at the absolute path dir) for loose objects, then the
// alternates it lists (at most maxAlternateDepth deep, as discover checked them: inside the roots), each
// opened through the handle of the root holding it.
func (s *objectStore) addLoose(rp *Repo, r *os.Root, dir string, depth int) error {
	s.loose = append(s.loose, r)
	data, err := readSmallIn(r, filepath.Join("info", "alternates"))
	if err != nil || depth >= maxAlternateDepth {
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(dir, line)
		}
		m, name, ok := rp.handleOf(filepath.Clean(line))
		if !ok {
			return errNoHandle
		}
		alt, err := m.fs.OpenRoot(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if err := s.addLoose(rp, alt, filepath.Clean(line), depth+1); err != nil {
			return err
		}
	}
	return nil
}

// Close closes the loose object directories and the storage.
func (s *objectStore) Close() error {
	for _, r := range s.loose {
		r.Close()
	}
	s.loose = nil
	s.packs.Close()
	for _, r := range s.ahead {
		if r != nil {
			r.Close()
		}
	}
	return s.Storage.Close()
}

// EncodedObject returns object h (of type t, or any for AnyObject): from the cache, from the packs
// through grove's reader, as a loose object, or from go-git's packs. Commits, trees and tags over
// maxObjectBytes are refused.
func (s *objectStore) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	o, ok := s.cache.Get(h)
	if !ok {
		var err error
		var p *packedObj
		if s.sha256 {
			o, err = s.object256(h)
		} else if p, err = s.packed(h); err == nil {
			o = p
		} else if errors.Is(err, errNotPacked) {
			if o, err = s.looseObject(h); errors.Is(err, fs.ErrNotExist) {
				o, err = s.Storage.EncodedObject(t, h)
			}
		}
		if err != nil {
			if s.partial && errors.Is(err, plumbing.ErrObjectNotFound) {
				return nil, &MissingObjectError{Hash: h}
			}
			return nil, err
		}
	}
	if t != plumbing.AnyObject && o.Type() != t {
		return nil, plumbing.ErrObjectNotFound
	}
	if o.Type() != plumbing.BlobObject && o.Size() > maxObjectBytes {
		return nil, refusedObject(o.Type(), h, o.Size())
	}
	if s.shallow[h] && o.Type() == plumbing.CommitObject {
		return withoutParents(o)
	}
	return o, nil
}

// looseObject reads h from the first loose object directory that has it; fs.ErrNotExist when none does.
func (s *objectStore) looseObject(h plumbing.Hash) (plumbing.EncodedObject, error) {
	hex := h.String()
	name := filepath.Join(hex[:2], hex[2:])
	for _, dir := range s.loose {
		f, err := gitfmt.OpenRegular(dir, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		lo := &looseObj{dir: dir, name: name, hash: h}
		r, err := lo.open(f)
		if err != nil {
			return nil, fmt.Errorf("reading object %s: %w", hex[:ShortLen], err)
		}
		if lo.size > largeObject {
			r.Close()
			return lo, nil
		}
		lo.data = make([]byte, lo.size)
		_, err = io.ReadFull(r, lo.data)
		if err == nil {
			_, err = r.Read(make([]byte, 1)) // the end of the stream, checked by sizedReader
		}
		r.Close()
		if err != io.EOF {
			return nil, fmt.Errorf("reading object %s: %w", hex[:ShortLen], err)
		}
		s.cache.Put(lo)
		return lo, nil
	}
	return nil, fs.ErrNotExist
}

// looseObj is a loose object: its content in data when small, else read from its file on every Reader call.
// It is what the cache holds for small loose objects, keyed by the hash it was found under.
type looseObj struct {
	dir  *os.Root
	name string
	hash plumbing.Hash
	typ  plumbing.ObjectType
	size int64
	data []byte // nil for a large object
}

// open parses the header of the object file f and returns its content, ending exactly at the header's size
// (errInflated otherwise). Closing the reader closes f.
func (o *looseObj) open(f *os.File) (io.ReadCloser, error) {
	z, err := gsync.GetZlibReader(bufio.NewReader(f))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %v", errInflated, err)
	}
	r := &sizedReader{z: z, f: f}
	typ, size, err := readLooseHeader(z.Reader)
	if err != nil {
		r.Close()
		return nil, err
	}
	if o.typ != plumbing.InvalidObject && (typ != o.typ || size != o.size) {
		r.Close()
		return nil, errInflated // the file changed since its header was read
	}
	o.typ, o.size, r.left = typ, size, size
	return r, nil
}

// readLooseHeader reads "<type> <size>\x00", at most maxLooseHeader bytes.
func readLooseHeader(r io.Reader) (plumbing.ObjectType, int64, error) {
	var buf [maxLooseHeader]byte
	for n := 0; n < len(buf); n++ {
		if _, err := io.ReadFull(r, buf[n:n+1]); err != nil {
			return 0, 0, fmt.Errorf("%w: %v", errInflated, err)
		}
		if buf[n] != 0 {
			continue
		}
		kind, num, ok := strings.Cut(string(buf[:n]), " ")
		typ, err := plumbing.ParseObjectType(kind)
		size, serr := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil || serr != nil || size < 0 || typ > plumbing.TagObject {
			break
		}
		return typ, size, nil
	}
	return 0, 0, errors.New("invalid loose object header")
}

func (o *looseObj) Hash() plumbing.Hash         { return o.hash }
func (o *looseObj) Type() plumbing.ObjectType   { return o.typ }
func (o *looseObj) Size() int64                 { return o.size }
func (o *looseObj) SetType(plumbing.ObjectType) {}
func (o *looseObj) SetSize(int64)               {}
func (o *looseObj) Writer() (io.WriteCloser, error) {
	return nil, errors.New("loose objects are read-only")
}

// Reader returns the object's content.
func (o *looseObj) Reader() (io.ReadCloser, error) {
	if o.data != nil || o.size == 0 {
		return io.NopCloser(bytes.NewReader(o.data)), nil
	}
	f, err := gitfmt.OpenRegular(o.dir, o.name)
	if err != nil {
		return nil, err
	}
	return o.open(f)
}

// sizedReader is a loose object's inflated content: exactly left bytes, then io.EOF once the compressed stream
// has ended too; a stream that ends early or goes on is errInflated, so a lying header costs no more than it
// claims.
type sizedReader struct {
	z    gsync.ZLibReader
	f    *os.File
	left int64
	done bool
}

func (r *sizedReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		var one [1]byte
		if n, err := r.z.Reader.Read(one[:]); n > 0 || err != io.EOF {
			return 0, errInflated
		}
		return 0, io.EOF
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n, err := r.z.Reader.Read(p)
	r.left -= int64(n)
	if err == io.EOF && r.left > 0 {
		err = errInflated
	} else if err == io.EOF {
		err = nil
	}
	return n, err
}

func (r *sizedReader) Close() error {
	if r.done {
		return nil
	}
	r.done = true
	gsync.PutZlibReader(r.z)
	return r.f.Close()
}

// ReadBlobCapped reads blob h when its header says it holds at most limit bytes; otherwise it reads nothing
// and returns a *tooLarge error. It also returns the size from the header.
func (rp *Repo) ReadBlobCapped(h plumbing.Hash, limit int64) ([]byte, int64, error) {
	o, err := rp.Git.Storer.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, 0, fmt.Errorf("reading blob %s: %w", h.String()[:ShortLen], err)
	}
	if _, big := o.(*oversized); big {
		limit = min(limit, maxObjectBytes) // what a SHA-256 repository's blobs are read up to
	}
	if o.Size() > limit {
		return nil, o.Size(), &patchtext.TooLarge{Size: o.Size(), Limit: limit}
	}
	data, err := ReadPrefix(o, o.Size())
	return data, o.Size(), err
}

// ReadPrefix reads the first n bytes of o (all of it when n is o.Size()), through a reader that holds the
// stream to the size in o's header: a stream that goes on, or ends early, is an error, never more memory.
func ReadPrefix(o plumbing.EncodedObject, n int64) ([]byte, error) {
	n = min(n, o.Size())
	r, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data := make([]byte, n)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("reading object %s: %w", o.Hash().String()[:ShortLen], inflateErr(err))
	}
	if n == o.Size() {
		if k, err := r.Read(make([]byte, 1)); k > 0 || err != nil && err != io.EOF {
			return nil, fmt.Errorf("reading object %s: %w", o.Hash().String()[:ShortLen], inflateErr(err))
		}
	}
	return data, nil
}

// inflateErr names a short or overlong stream as the corruption it is.
func inflateErr(err error) error {
	if err == nil || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errInflated
	}
	return err
}

// CopyObject streams o's content into w, checking ctx between chunks; the content must be exactly o.Size()
// bytes. Memory stays at one buffer whatever the object's size.
func CopyObject(ctx context.Context, w io.Writer, o plumbing.EncodedObject) error {
	r, err := o.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	n, err := io.CopyBuffer(w, CtxReader{ctx, r}, make([]byte, 64<<10))
	if err != nil {
		return inflateErr(err)
	}
	if n != o.Size() {
		return errInflated
	}
	return nil
}

// CtxReader fails a read once ctx is done, so a long copy stops between chunks.
type CtxReader struct {
	Ctx context.Context
	R   io.Reader
}

func (c CtxReader) Read(p []byte) (int, error) {
	if err := c.Ctx.Err(); err != nil {
		return 0, err
	}
	return c.R.Read(p)
}

// ShortLen is the length of the short hashes the write tools report.
const ShortLen = 7
