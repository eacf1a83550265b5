package gittools

import (
	"io"

	"github.com/go-git/go-git/v5/plumbing"
)

// lines returns a blob split into lines, each with its "\n" (the last may lack it, and then differs from
// the same text with one, as in xdiff), read once per blame while an origin holds it.
func (b *blamer) lines(h plumbing.Hash) (*blobText, error) {
	if t, ok := b.blobs[h]; ok {
		return t, nil
	}
	data, err := b.rp.blobBytes(h)
	if err != nil {
		return nil, err
	}
	l := splitLines(data)
	t := &blobText{lines: l, class: b.classes.classify(l)}
	b.blobs[h] = t
	return t, nil
}

// blobBytes reads a whole blob.
func (rp *repo) blobBytes(h plumbing.Hash) ([]byte, error) {
	o, err := rp.git.Storer.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return nil, err
	}
	return readObject(o)
}

// readObject reads an object's whole content.
func readObject(o plumbing.EncodedObject) ([]byte, error) {
	r, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// splitSuspects applies a diff from a parent's version (A) to o's (B): suspects on lines the diff replaces stay
// (keep); the others map to their line in A (passed). sus must be sorted by at; both results are too.
func splitSuspects(sus []suspect, diffs []lineChange) (keep, passed []suspect) {
	d, offset := 0, 0 // offset: A index minus B index after diffs[:d]
	for _, s := range sus {
		for d < len(diffs) && diffs[d].bEnd <= s.at {
			offset = diffs[d].aEnd - diffs[d].bEnd
			d++
		}
		if d < len(diffs) && diffs[d].bStart <= s.at && s.at < diffs[d].bEnd {
			keep = append(keep, s)
			continue
		}
		passed = append(passed, suspect{final: s.final, at: s.at + offset})
	}
	return keep, passed
}

// lineChange replaces lines [aStart, aEnd) of A by lines [bStart, bEnd) of B.
type lineChange struct{ aStart, aEnd, bStart, bEnd int }
