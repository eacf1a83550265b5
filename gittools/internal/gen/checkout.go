package gen

import (
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// racyGap exceeds the kernel's coarse file-time granularity (a jiffy, 1-10 ms).
const racyGap = 20 * time.Millisecond

// checkout writes the files and an index with their stat data, as `git checkout` leaves them.
func checkout(dir string, r *git.Repository, files map[string]string) error {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	idx := &index.Index{Version: 2}
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(files[p]), 0o644); err != nil {
			return err
		}
		fi, err := os.Lstat(full)
		if err != nil {
			return err
		}
		e := &index.Entry{Name: p, Mode: filemode.Regular, Size: uint32(fi.Size()), ModifiedAt: fi.ModTime(),
			Hash: plumbing.ComputeHash(plumbing.BlobObject, []byte(files[p]))}
		e.CreatedAt = fi.ModTime()
		statInfo(e, fi)
		idx.Entries = append(idx.Entries, e)
	}
	// index entries written in the same clock tick as the index are racily clean and would be hashed on
	// every status; git avoids that the same way, by the index being newer than the files
	time.Sleep(racyGap)
	return r.Storer.SetIndex(idx)
}
