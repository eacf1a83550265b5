package repo

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/packread"
)

// minShortHash is the shortest abbreviated hash we look up, as git.
const minShortHash = 4

var errNoObject = errors.New("no object with that prefix")

// resolveShort finds the one object whose hash starts with prefix, by binary search over every pack's .idx
// (about log2(n) 20-byte reads per pack instead of go-git's linear scan) and a listing of the loose fan-out dir.
func (rp *Repo) resolveShort(prefix string) (plumbing.Hash, error) {
	prefix = strings.ToLower(prefix)
	objects, err := rp.dirs.common.root.OpenRoot("objects")
	if err != nil {
		return plumbing.ZeroHash, errNoObject
	}
	defer objects.Close()
	seen := map[plumbing.Hash]bool{}
	hashLen := keyLen
	if rp.SHA256() {
		hashLen = sha256Len
	}
	for _, name := range listDir(objects, "pack") {
		if !strings.HasPrefix(name, "pack-") || !strings.HasSuffix(name, ".idx") {
			continue
		}
		hs, err := idxPrefix(objects, "pack/"+name, prefix, hashLen)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("reading pack index: %w", err)
		}
		for _, h := range hs {
			seen[h] = true
		}
	}
	for _, name := range listDir(objects, prefix[:2]) {
		if n := prefix[:2] + name; len(n) == 2*hashLen && IsHex(n) && strings.HasPrefix(n, prefix) {
			seen[plumbing.NewHash(n)] = true
		}
	}
	switch len(seen) {
	case 0:
		return plumbing.ZeroHash, errNoObject
	case 1:
		for h := range seen {
			return h, nil
		}
	}
	return plumbing.ZeroHash, fmt.Errorf("short hash %q is ambiguous", prefix)
}

// listDir lists the names in dir of root, or nothing.
func listDir(root *os.Root, dir string) []string {
	f, err := root.OpenFile(dir, os.O_RDONLY|gitfmt.OpenNoBlock, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	return names
}

// idxPrefix returns up to two hashes in a version-2 pack index of hashLen-byte names that start with prefix
// (as keys, see objectformat.go).
func idxPrefix(root *os.Root, name, prefix string, hashLen int) ([]plumbing.Hash, error) {
	f, err := gitfmt.OpenRegular(root, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var head [8 + 256*4]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return nil, err
	}
	if string(head[:4]) != "\xfftOc" || binary.BigEndian.Uint32(head[4:8]) != 2 {
		return nil, errors.New("unsupported pack index version")
	}
	first, _ := hex.DecodeString(prefix[:2])
	fan := func(i int) int {
		if i < 0 {
			return 0
		}
		return int(binary.BigEndian.Uint32(head[8+4*i:]))
	}
	lo, hi := fan(int(first[0])-1), fan(int(first[0]))
	buf := make([]byte, hashLen)
	var readErr error
	entry := func(i int) string {
		if _, err := f.ReadAt(buf, int64(len(head)+hashLen*i)); err != nil {
			readErr = err
		}
		return hex.EncodeToString(buf)
	}
	i := lo + sort.Search(hi-lo, func(k int) bool { return entry(lo+k) >= prefix })
	var out []plumbing.Hash
	for ; i < hi && len(out) < 2; i++ {
		n := entry(i)
		if !strings.HasPrefix(n, prefix) {
			break
		}
		out = append(out, plumbing.NewHash(n))
	}
	return out, readErr
}

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
