package packread

import (
	"os"
	"path/filepath"
)

// Open returns a reader of the packs in the directory at the absolute path dir, for tests.
func Open(dir string) *Reader {
	parent, err := os.OpenRoot(filepath.Dir(dir))
	if err != nil {
		return OpenIn(nil, dir) // fails on load, as a missing directory does
	}
	return OpenIn(parent, filepath.Base(dir))
}
