package merge

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/packwrite"
)

// Store reads and writes the objects a merge needs. Objects are read through go-git's storer, so any
// repository storage serves; trees with names git would never write are refused, and blobs are read only up
// to MaxBlob bytes.
type Store struct {
	S       storer.EncodedObjectStorer
	MaxBlob int64 // 0: DefaultMaxBlob
	// Pack, when set, takes the objects PutTree and PutBlob create in one call at Flush: until then they are
	// held in memory (and read back from there), so that a merge writes one pack instead of a loose file per
	// tree. Blobs over PackMax bytes are stored through S at once. A caller that sets Pack must call Flush
	// before anything outside the store reads the objects.
	Pack    func([]packwrite.Object) error
	PackMax int64

	pending map[plumbing.Hash]packwrite.Object // guarded by the caller, as the merge runs on one goroutine
	order   []plumbing.Hash
}

// DefaultMaxBlob is the largest file a merge reads: larger ones are merged only when one side kept the base.
const DefaultMaxBlob = 64 << 20

// ErrTooBig reports a file too large to merge line by line.
type ErrTooBig struct {
	Hash plumbing.Hash
	Size int64
}

func (e *ErrTooBig) Error() string {
	return fmt.Sprintf("blob %s is %d bytes, more than a merge reads", e.Hash.String()[:7], e.Size)
}

// Commit reads a commit.
func (s *Store) Commit(h plumbing.Hash) (*object.Commit, error) {
	return object.GetCommit(s.S, h)
}

// Tree reads a tree's entries; the zero hash is the empty tree.
func (s *Store) Tree(h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	data, err := s.read(plumbing.TreeObject, h)
	if err != nil {
		return nil, fmt.Errorf("reading tree %s: %w", h.String()[:7], err)
	}
	es, err := parseTree(data)
	if err != nil {
		return nil, fmt.Errorf("reading tree %s: %w", h.String()[:7], err)
	}
	for _, e := range es {
		if !gitfmt.ValidPathComponent(e.Name) {
			return nil, gitfmt.BadEntry("tree "+h.String()[:7], e.Name)
		}
	}
	return es, nil
}

// read returns an object's content whole, up to MaxBlob bytes.
func (s *Store) read(t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	if o, ok := s.pending[h]; ok && plumbing.ObjectType(o.Type) == t {
		return slices.Clone(o.Data), nil
	}
	o, err := s.S.EncodedObject(t, h)
	if err != nil {
		return nil, err
	}
	limit := s.MaxBlob
	if limit <= 0 {
		limit = DefaultMaxBlob
	}
	if o.Size() > limit {
		return nil, &ErrTooBig{Hash: h, Size: o.Size()}
	}
	r, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data := make([]byte, o.Size())
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, err
	}
	return data, nil
}

// parseTree reads a tree object's entries through gitfmt's one tree parser, allocating once per entry
// name (go-git's decoder reads entry by entry through a buffered reader, several times slower).
func parseTree(data []byte) ([]object.TreeEntry, error) {
	es := make([]object.TreeEntry, 0, bytes.Count(data, []byte{0}))
	it := gitfmt.NewTreeIter(data)
	for e, ok := it.Next(); ok; e, ok = it.Next() {
		if len(e.Name) == 0 {
			return nil, gitfmt.ErrBadTree
		}
		es = append(es, object.TreeEntry{Name: string(e.Name), Mode: e.Mode, Hash: e.Hash})
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	return es, nil
}

// Blob reads a blob whole, up to MaxBlob bytes.
func (s *Store) Blob(h plumbing.Hash) ([]byte, error) {
	data, err := s.read(plumbing.BlobObject, h)
	var tooBig *ErrTooBig
	if err != nil && !errors.As(err, &tooBig) {
		return nil, fmt.Errorf("reading blob %s: %w", h.String()[:7], err)
	}
	return data, err
}

// PutBlob stores data as a blob.
func (s *Store) PutBlob(data []byte) (plumbing.Hash, error) {
	if s.Pack != nil && int64(len(data)) <= s.PackMax {
		return s.hold(packwrite.Object{Type: packwrite.Blob, Data: data})
	}
	o := s.S.NewEncodedObject()
	o.SetType(plumbing.BlobObject)
	o.SetSize(int64(len(data)))
	w, err := o.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.put(o)
}

// PutTree stores a tree of entries (sorted here as git sorts them).
func (s *Store) PutTree(entries []object.TreeEntry) (plumbing.Hash, error) {
	sort.Sort(object.TreeEntrySorter(entries))
	if s.Pack != nil {
		return s.hold(packwrite.Object{Type: packwrite.Tree, Data: encodeTree(entries)})
	}
	o := s.S.NewEncodedObject()
	if err := (&object.Tree{Entries: entries}).Encode(o); err != nil {
		return plumbing.ZeroHash, err
	}
	return s.put(o)
}

func (s *Store) put(o plumbing.EncodedObject) (plumbing.Hash, error) {
	if s.S.HasEncodedObject(o.Hash()) == nil {
		return o.Hash(), nil
	}
	return s.S.SetEncodedObject(o)
}

// encodeTree is the content of a tree of sorted entries: "<octal mode> <name>\x00<hash>" each.
func encodeTree(entries []object.TreeEntry) []byte {
	n := 0
	for _, e := range entries {
		n += len(e.Name) + 8 + len(e.Hash)
	}
	b := make([]byte, 0, n)
	for _, e := range entries {
		b = strconv.AppendUint(b, uint64(e.Mode), 8)
		b = append(b, ' ')
		b = append(b, e.Name...)
		b = append(b, 0)
		b = append(b, e.Hash[:]...)
	}
	return b
}

// hold keeps o for Flush, unless it is stored already.
func (s *Store) hold(o packwrite.Object) (plumbing.Hash, error) {
	h := plumbing.Hash(o.Name())
	if _, ok := s.pending[h]; ok {
		return h, nil
	}
	if s.S.HasEncodedObject(h) == nil {
		return h, nil
	}
	if s.pending == nil {
		s.pending = map[plumbing.Hash]packwrite.Object{}
	}
	s.pending[h] = o
	s.order = append(s.order, h)
	return h, nil
}

// Flush hands the objects held since the last Flush to Pack, in the order they were made.
func (s *Store) Flush() error {
	if len(s.order) == 0 {
		return nil
	}
	objs := make([]packwrite.Object, len(s.order))
	for i, h := range s.order {
		objs[i] = s.pending[h]
	}
	if err := s.Pack(objs); err != nil {
		return err
	}
	s.pending, s.order = nil, nil
	return nil
}
