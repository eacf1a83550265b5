package repo

import (
	"path/filepath"

	"github.com/grove-mcp/grove/gittools/internal/packread"
)

// ReadAhead returns two pack readers of rp's objects, apart from the one the storage reads through, for
// goroutines that read ahead of an operation holding rp's lock (blame's prefetcher and chain reader): each has
// its own lock and cache, so neither waits for the operation's reads. They are opened once per storage
// and closed with it, so a second blame finds their indexes loaded and their caches warm (opening them per
// call made warm blames on small repositories slower than git). Only the holder of rp's lock may use them,
// and only until it releases it. Caller holds rp's lock.
func (rp *Repo) ReadAhead() [2]*packread.Reader {
	s := rp.Store
	if s.ahead[0] == nil {
		dir := filepath.Join("objects", "pack")
		s.ahead = [2]*packread.Reader{packread.OpenIn(s.common, dir), packread.OpenIn(s.common, dir)}
	}
	return s.ahead
}

// warmAhead loads the read-ahead readers' pack indexes (see ReadAhead).
func (rp *Repo) warmAhead() {
	for _, r := range rp.ReadAhead() {
		_ = r.Load() // packs it cannot read are read by the walk itself
	}
}
