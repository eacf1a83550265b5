package repo

// A shallow clone (git clone --depth) lacks the history behind the commits listed in $GIT_DIR/shallow, one
// hash a line: git treats those commits as having no parents (gitrepository-layout(5)), and so does grove,
// by leaving their parent lines out when the store hands them out. Every reader of commits (log, blame, the
// walkers, go-git) then stops at the boundary, as git log does, instead of failing on a missing object.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/go-git/go-git/v5/plumbing"
)

// isPartialClone reports whether the repository's config, data, marks a partial clone (extensions.partialClone).
func isPartialClone(data []byte, err error) bool {
	return err == nil && bytes.Contains(bytes.ToLower(data), []byte("partialclone"))
}

// MissingObjectError is an object a partial clone left out (git clone --filter). git fetches such objects
// from the promisor remote when it needs them; grove never touches the network.
type MissingObjectError struct{ Hash plumbing.Hash }

func (e *MissingObjectError) Error() string {
	return fmt.Sprintf("object %s is missing: this is a partial clone (git clone --filter), which fetches objects "+
		"when git needs them, and grove never fetches: run the same command with git once (it fetches what it lacks), or clone without --filter", e.Hash.String()[:ShortLen])
}

func (e *MissingObjectError) Is(target error) bool { return target == plumbing.ErrObjectNotFound }

// readShallow reads the shallow file of commonDir; nil when there is none (or it is unreadable: then the
// missing parents read as missing objects, the error there was before).
func readShallow(commonDir *os.Root) map[plumbing.Hash]bool {
	data, err := readSmallIn(commonDir, "shallow")
	if err != nil {
		return nil
	}
	set := map[plumbing.Hash]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if line := string(bytes.TrimSpace(sc.Bytes())); plumbing.IsHash(line) {
			set[plumbing.NewHash(line)] = true
		}
	}
	return set
}

// withoutParents returns the commit o with its parent lines left out, under its own hash.
func withoutParents(o plumbing.EncodedObject) (plumbing.EncodedObject, error) {
	data, err := ReadPrefix(o, o.Size())
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	header := true
	for line := range bytes.Lines(data) {
		if header && bytes.Equal(line, []byte("\n")) {
			header = false
		}
		if header && bytes.HasPrefix(line, []byte("parent ")) {
			continue
		}
		out.Write(line)
	}
	return &graftedObj{hash: o.Hash(), data: out.Bytes()}, nil
}

// graftedObj is a commit rewritten by withoutParents: read-only, and named by the original's hash.
type graftedObj struct {
	hash plumbing.Hash
	data []byte
}

func (g *graftedObj) Hash() plumbing.Hash         { return g.hash }
func (g *graftedObj) Type() plumbing.ObjectType   { return plumbing.CommitObject }
func (g *graftedObj) SetType(plumbing.ObjectType) {}
func (g *graftedObj) Size() int64                 { return int64(len(g.data)) }
func (g *graftedObj) SetSize(int64)               {}
func (g *graftedObj) Reader() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(g.data)), nil
}
func (g *graftedObj) Writer() (io.WriteCloser, error) {
	return nil, errors.New("a shallow boundary commit is read-only")
}
