package repo

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
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

// headCache remembers what HEAD resolved to, with the stat data of the files the answer came from: HEAD, the
// loose ref of the branch it names, and packed-refs. Three lstat calls check it, where go-git's resolution
// opens and reads two or three files through a symlink-checking filesystem on every call.
type headCache struct {
	hash   plumbing.Hash
	born   bool
	stamps [3]fileStamp // HEAD, the branch's loose ref, packed-refs
	branch string       // the branch HEAD names, e.g. refs/heads/main
}

// RacyWindow is how old a file's mtime must be before its stat data vouches for its content: a file rewritten
// Within the same timestamp tick (coarse, a few ms) keeps size and mtime, so younger stamps are not trusted.
var RacyWindow = time.Second // a variable so tests can lower it

// HeadHash resolves HEAD; ok is false (no error) on an unborn branch.
func (rp *Repo) HeadHash() (_ plumbing.Hash, ok bool, err error) {
	if hc := rp.head; hc != nil && rp.headStamps(hc.branch) == hc.stamps {
		return hc.hash, hc.born, nil
	}
	rp.head = nil
	// Stamps before reads: a change in between leaves stamps that no longer match, so the next call re-reads.
	// HEAD is stamped twice, around reading the branch it names, so that branch and stamps agree.
	before := statStamp(rp.dirs.git.root, "HEAD")
	branch := rp.headBranch()
	stamps := rp.headStamps(branch)
	ref, err := rp.Git.Head()
	born := err == nil
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		err = nil
	}
	if err != nil {
		return plumbing.ZeroHash, false, err
	}
	var h plumbing.Hash
	if born {
		h = ref.Hash()
	}
	if branch != "" && stamps[0] == before && rp.plainBranch(branch, born) && trustworthy(stamps[:], time.Now()) {
		rp.head = &headCache{hash: h, born: born, stamps: stamps, branch: branch}
	}
	return h, born, nil
}

// detachedHead is headBranch's answer for a HEAD holding a hash.
const detachedHead = "HEAD"

// headBranch returns the branch HEAD names, detachedHead when HEAD holds a hash, or "" when it names something
// other than a plain branch or cannot be read (then nothing is cached).
func (rp *Repo) headBranch() string {
	ref, err := rp.Git.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return ""
	}
	if ref.Type() != plumbing.SymbolicReference {
		return detachedHead
	}
	name := ref.Target()
	short, ok := strings.CutPrefix(name.String(), "refs/heads/")
	if !ok || gitfmt.ValidRefName(short) != nil {
		return ""
	}
	return name.String()
}

// plainBranch reports whether branch is a loose or packed ref holding a hash, not a symbolic ref whose target
// the stamps would not cover.
func (rp *Repo) plainBranch(branch string, born bool) bool {
	if branch == detachedHead || !born {
		return true
	}
	ref, err := rp.Git.Storer.Reference(plumbing.ReferenceName(branch))
	return err == nil && ref.Type() == plumbing.HashReference
}

// headStamps takes the stat data of the files HEAD's resolution reads.
func (rp *Repo) headStamps(branch string) [3]fileStamp {
	var s [3]fileStamp
	s[0] = statStamp(rp.dirs.git.root, "HEAD")
	if branch != detachedHead && branch != "" {
		s[1] = statStamp(rp.dirs.common.root, filepath.FromSlash(branch))
	}
	s[2] = statStamp(rp.dirs.common.root, "packed-refs")
	return s
}

// trustworthy reports whether every stamp is readable and old enough (see racyWindow).
func trustworthy(stamps []fileStamp, now time.Time) bool {
	limit := now.Add(-RacyWindow).UnixNano()
	for _, s := range stamps {
		if s.mtime == -1 || s.mtime > limit {
			return false
		}
	}
	return true
}
