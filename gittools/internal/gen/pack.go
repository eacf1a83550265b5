package gen

import (
	"errors"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/memory"
)

// deltaWindow is git's default delta search window.
const deltaWindow = 10

// writePack writes every object generated in mem into one pack (with its .idx) of r: far faster than one
// loose file per object, and shaped like a real clone.
func writePack(r *git.Repository, mem *memory.Storage, noDeltas bool) error {
	pw, ok := r.Storer.(storer.PackfileWriter)
	if !ok {
		return errors.New("storage cannot write packs")
	}
	var hashes []plumbing.Hash
	for h := range mem.ObjectStorage.Objects {
		hashes = append(hashes, h)
	}
	w, err := pw.PackfileWriter()
	if err != nil {
		return err
	}
	window := uint(deltaWindow)
	if noDeltas {
		window = 0
	}
	if _, err := packfile.NewEncoder(w, mem, false).Encode(hashes, window); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
