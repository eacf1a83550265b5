package repo

import (
	"errors"
	"path/filepath"
	"strings"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing"
)

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
