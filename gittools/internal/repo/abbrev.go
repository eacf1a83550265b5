package repo

import (
	"encoding/hex"
	"math/bits"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/gittools/internal/packread"
)

// minAbbrev is the shortest abbreviation git writes.
const minAbbrev = 7

// Abbrever abbreviates object names the way git does with core.abbrev "auto" (git-config(5)): a length
// grown with the repository's approximate object count, long enough that about half the bits name the
// object, then longer where another object shares the prefix. One Abbrever serves one answer: it lists
// each loose-object directory it needs once.
type Abbrever struct {
	rp    *Repo
	n     int
	loose map[string][]string // fan-out directory -> the loose object names in it
}

// Abbrever returns an abbreviator for rp's objects as they are now.
func (rp *Repo) Abbrever() *Abbrever {
	a := &Abbrever{rp: rp, n: minAbbrev, loose: map[string][]string{}}
	if rp.Store != nil {
		// Half the bits that number the objects, in hex digits rounded up.
		a.n = max(minAbbrev, (bits.Len(uint(rp.Store.packs.Count()))+1)/2)
	}
	return a
}

// Len is the length before uniqueness is checked: the length of an all-zero name.
func (a *Abbrever) Len() int { return a.n }

// Abbrev returns h's shortest unique abbreviation of at least Len digits; the zero hash is Len zeros.
func (a *Abbrever) Abbrev(h plumbing.Hash) string {
	full := h.String()
	if h.IsZero() || a.rp.Store == nil {
		return full[:a.n]
	}
	shared := a.rp.Store.packs.SharedPrefix(h)
	dir := full[:2]
	names, ok := a.loose[dir]
	if !ok {
		if len(a.rp.Store.loose) > 0 {
			names = listDir(a.rp.Store.loose[0], dir)
		}
		a.loose[dir] = names
	}
	for _, name := range names {
		if len(name) != 38 || name == full[2:] {
			continue
		}
		if other, err := hex.DecodeString(dir + name); err == nil {
			shared = max(shared, packread.SharedHex(other, h[:]))
		}
	}
	return full[:min(len(full), max(a.n, shared+1))]
}

// Zero is an all-zero name of the Abbrever's length.
func (a *Abbrever) Zero() string { return strings.Repeat("0", a.n) }
