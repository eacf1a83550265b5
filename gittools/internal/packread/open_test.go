package packread

import (
	"os"
	"path/filepath"
)

// Open returns a reader of the packs in the directory at the absolute path dir, for tests.
func Open(dir string) *Reader { return OpenHash(dir, hashLen) }

// OpenHash is Open for object names of hashLen bytes.
func OpenHash(dir string, hashLen int) *Reader {
	parent, err := os.OpenRoot(filepath.Dir(dir))
	if err != nil {
		return OpenInHash(nil, dir, hashLen) // fails on load, as a missing directory does
	}
	return OpenInHash(parent, filepath.Base(dir), hashLen)
}
