package repo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// maxRevision bounds revision arguments.
const maxRevision = 256

// ValidRevision refuses revisions that could be taken for options or that carry bytes no ref or revision
// expression contains: a leading '-', NUL and other control characters, spaces, and backslashes.
func ValidRevision(rev string) error {
	switch {
	case rev == "":
		return errors.New("empty revision")
	case len(rev) > maxRevision:
		return fmt.Errorf("revision too long (%d bytes)", len(rev))
	case rev[0] == '-':
		return fmt.Errorf("invalid revision %q: must not start with '-'", rev)
	}
	for _, c := range []byte(rev) {
		if c <= ' ' || c == 0x7f || c == '\\' {
			return fmt.Errorf("invalid revision %q: must not contain %q", rev, c)
		}
	}
	return nil
}

// errUnknownRevision is returned for revisions that are valid but name nothing.
func errUnknownRevision(rev string) error {
	return fmt.Errorf("unknown revision %q", rev)
}

// Resolve validates rev and resolves it to a commit hash (annotated tags are peeled).
func (rp *Repo) Resolve(rev string) (plumbing.Hash, error) {
	if err := ValidRevision(rev); err != nil {
		return plumbing.ZeroHash, err
	}
	h, err := rp.resolveAny(rev)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return rp.peelCommit(h, rev)
}

// resolveAny resolves rev to an object hash without peeling. Hex strings are hashes (full, or abbreviated to
// at least minShortHash digits, found by binary search over the pack indexes) unless a ref has that name;
// everything else goes to go-git's revision parser.
func (rp *Repo) resolveAny(rev string) (plumbing.Hash, error) {
	if !IsHex(rev) {
		h, err := rp.Git.ResolveRevision(plumbing.Revision(rev))
		if err != nil {
			return plumbing.ZeroHash, errUnknownRevision(rev)
		}
		return *h, nil
	}
	if h, ok := rp.refByName(rev); ok {
		return h, nil
	}
	switch {
	case len(rev) == 40:
		h := plumbing.NewHash(rev)
		if _, err := rp.Git.Storer.EncodedObject(plumbing.AnyObject, h); err == nil {
			return h, nil
		}
	case len(rev) >= minShortHash:
		h, err := rp.resolveShort(rev)
		if !errors.Is(err, errNoObject) {
			return h, err
		}
	}
	return plumbing.ZeroHash, errUnknownRevision(rev)
}

// refByName looks rev up the way git does for a ref name: as given, then under refs/, refs/tags/,
// refs/heads/ and refs/remotes/.
func (rp *Repo) refByName(rev string) (plumbing.Hash, bool) {
	for _, prefix := range []string{"", "refs/", "refs/tags/", "refs/heads/", "refs/remotes/"} {
		ref, err := rp.Git.Reference(plumbing.ReferenceName(prefix+rev), true)
		if err == nil {
			return ref.Hash(), true
		}
	}
	return plumbing.ZeroHash, false
}

// peelCommit follows annotated tags from h to a commit.
func (rp *Repo) peelCommit(h plumbing.Hash, rev string) (plumbing.Hash, error) {
	for range 10 {
		o, err := rp.Git.Storer.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return plumbing.ZeroHash, errUnknownRevision(rev)
		}
		switch o.Type() {
		case plumbing.CommitObject:
			return h, nil
		case plumbing.TagObject:
			t, err := object.DecodeTag(rp.Git.Storer, o)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			h = t.Target
		default:
			return plumbing.ZeroHash, fmt.Errorf("revision %q is a %s, not a commit", rev, o.Type())
		}
	}
	return plumbing.ZeroHash, errUnknownRevision(rev)
}

// Commit resolves rev and reads the commit.
func (rp *Repo) Commit(rev string) (*object.Commit, error) {
	h, err := rp.Resolve(rev)
	if err != nil {
		return nil, err
	}
	return rp.Git.CommitObject(h)
}

// HeadCommit returns HEAD's commit, or nil (no error) on an unborn branch.
func (rp *Repo) HeadCommit() (*object.Commit, error) {
	h, ok, err := rp.HeadHash()
	if err != nil || !ok {
		return nil, err
	}
	return rp.Git.CommitObject(h)
}

func IsHex(s string) bool {
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// SplitRange splits "a..b" into its ends ("" for an omitted end, meaning HEAD); ok is false without "..".
func SplitRange(rev string) (a, b string, ok bool) {
	if strings.Contains(rev, "...") {
		return "", "", false
	}
	a, b, ok = strings.Cut(rev, "..")
	return a, b, ok
}
