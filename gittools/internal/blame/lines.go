package blame

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/internal/words"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/gittools/internal/linediff"
)

// defaultMaxBlameBlob is the limit on what blame reads into memory when the repository sets none: the
// server's --max-file-size default.
const defaultMaxBlameBlob = 10 << 20

// lines returns a blob split into lines, each with its "\n" (the last may lack it, and then differs from
// the same text with one, as in git), read once per blame while an origin holds it.
func (b *blamer) lines(h plumbing.Hash) (linediff.Text, error) {
	if t, ok := b.blobs[h]; ok {
		return t, nil
	}
	data, err := b.objects.blob(h)
	if err != nil {
		return linediff.Text{}, err
	}
	t := b.differ.Text(patchtext.SplitLines(data))
	b.blobs[h] = t
	return t, nil
}

// blobReader reads the objects of one blame, each sized before it is inflated. go-git reads a packed
// object lazily once it is over 16 KiB, so its size comes from the pack for free; a loose one it inflates
// whole unless asked for the size alone, and asking costs a probe of the loose store for every object.
// So the reader looks in the loose store itself, through the objects directory opened once.
type blobReader struct {
	rp      *repo.Repo
	objects *os.Root // nil when it cannot be opened: then every object is sized by go-git
	// limit is the largest object blame reads into memory (the server's --max-file-size): each version of
	// the blamed file, each file a rename search scores, each tree it compares. Past it blame says so.
	limit int64
}

func newBlobReader(rp *repo.Repo) *blobReader {
	objects, _ := os.OpenRoot(filepath.Join(rp.CommonDir, "objects"))
	limit := rp.MaxRead
	if limit <= 0 {
		limit = defaultMaxBlameBlob
	}
	return &blobReader{rp: rp, objects: objects, limit: limit}
}

func (r *blobReader) close() {
	if r.objects != nil {
		r.objects.Close()
	}
}

// blob reads a blob of at most r.limit bytes.
func (r *blobReader) blob(h plumbing.Hash) ([]byte, error) {
	return r.read(plumbing.BlobObject, h, r.limit)
}

// read reads an object of type t whose size, known before anything is inflated, is at most limit; it
// reads no more than that size, and fails if the content is longer or shorter.
func (r *blobReader) read(t plumbing.ObjectType, h plumbing.Hash, limit int64) ([]byte, error) {
	if r.loose(h) {
		size, err := r.rp.Git.Storer.EncodedObjectSize(h)
		if err != nil {
			return nil, err
		}
		if size > limit {
			return nil, &tooLargeError{kind: t, size: size, limit: limit}
		}
	}
	o, err := r.rp.Git.Storer.EncodedObject(t, h)
	if err != nil {
		return nil, err
	}
	size := o.Size()
	if size > limit {
		return nil, &tooLargeError{kind: t, size: size, limit: limit}
	}
	rd, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	data := make([]byte, size)
	if _, err := io.ReadFull(rd, data); err != nil {
		return nil, fmt.Errorf("reading %s %s: %w", t, h, err)
	}
	var extra [1]byte
	if n, _ := io.ReadFull(rd, extra[:]); n > 0 {
		return nil, fmt.Errorf("reading %s %s: longer than the %d bytes its header gives", t, h, size)
	}
	return data, nil
}

// size returns the size of object h without inflating more than 16 KiB of it.
func (r *blobReader) size(h plumbing.Hash) (int64, error) {
	if r.loose(h) {
		return r.rp.Git.Storer.EncodedObjectSize(h)
	}
	o, err := r.rp.Git.Storer.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return 0, err
	}
	return o.Size(), nil
}

// loose reports whether h may be a loose object (so that go-git would inflate it whole to read it).
func (r *blobReader) loose(h plumbing.Hash) bool {
	if r.objects == nil {
		return true
	}
	hex := h.String()
	_, err := r.objects.Lstat(hex[:2] + "/" + hex[2:])
	return err == nil
}

// tooLargeError refuses an object over what blame reads.
type tooLargeError struct {
	kind        plumbing.ObjectType
	size, limit int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s of %s: over the %s limit on what git_blame reads", e.kind, ByteSize(e.size), ByteSize(e.limit))
}

// ByteSize renders n bytes for a person: "300 MiB", "1.5 KiB", "12 bytes".
func ByteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return words.Count(int(n), "byte", "bytes")
	}
	v, i := float64(n)/unit, 0
	for v >= unit && i < 3 {
		v, i = v/unit, i+1
	}
	s := fmt.Sprintf("%.1f", v)
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		s = s[:len(s)-2]
	}
	return s + " " + [...]string{"KiB", "MiB", "GiB", "TiB"}[i]
}

// splitSuspects applies a diff from a parent's version (A) to o's (B): suspects on lines the diff replaces stay
// (keep); the others map to their line in A (passed). sus must be sorted by at; both results are too.
func splitSuspects(sus []suspect, diffs []linediff.Change) (keep, passed []suspect) {
	d, offset := 0, 0 // offset: A index minus B index after diffs[:d]
	for _, s := range sus {
		for d < len(diffs) && diffs[d].B1 <= s.at {
			offset = diffs[d].A1 - diffs[d].B1
			d++
		}
		if d < len(diffs) && diffs[d].B0 <= s.at && s.at < diffs[d].B1 {
			keep = append(keep, s)
			continue
		}
		passed = append(passed, suspect{final: s.final, at: s.at + offset})
	}
	return keep, passed
}
