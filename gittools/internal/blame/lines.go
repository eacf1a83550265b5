package blame

import (
	"fmt"

	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/internal/words"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/internal/linediff"
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

// blobReader reads the objects of one blame, each sized before it is inflated: the repository's store
// reads a loose object's header first and a packed object's size from the pack, and only then is the
// content read, at most limit bytes of it.
type blobReader struct {
	rp *repo.Repo
	// limit is the largest object blame reads into memory (the server's --max-file-size): each version of
	// the blamed file, each file a rename search scores, each tree it compares. Past it blame says so.
	limit int64
}

func newBlobReader(rp *repo.Repo) *blobReader {
	limit := rp.MaxRead
	if limit <= 0 {
		limit = defaultMaxBlameBlob
	}
	return &blobReader{rp: rp, limit: limit}
}

func (r *blobReader) close() {}

// blob reads a blob of at most r.limit bytes.
func (r *blobReader) blob(h plumbing.Hash) ([]byte, error) {
	return r.read(plumbing.BlobObject, h, r.limit)
}

// read reads an object of type t whose size, known before its content is read, is at most limit. The
// content may be shared with the pack reader's cache: callers must not modify it.
func (r *blobReader) read(t plumbing.ObjectType, h plumbing.Hash, limit int64) ([]byte, error) {
	size, err := r.sizeOf(t, h)
	if err != nil {
		return nil, err
	}
	if size > limit {
		return nil, &tooLargeError{kind: t, size: size, limit: limit}
	}
	data, err := r.rp.RawObject(t, h)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) != size {
		return nil, fmt.Errorf("reading %s %s: %d bytes where its header gives %d", t, h, len(data), size)
	}
	return data, nil
}

// size returns the size of object h without reading more of it than the store must.
func (r *blobReader) size(h plumbing.Hash) (int64, error) { return r.sizeOf(plumbing.AnyObject, h) }

func (r *blobReader) sizeOf(t plumbing.ObjectType, h plumbing.Hash) (int64, error) {
	o, err := r.rp.Git.Storer.EncodedObject(t, h)
	if err != nil {
		return 0, err
	}
	return o.Size(), nil
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
