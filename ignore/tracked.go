package ignore

import (
	"os"
	"path"
)

// trackedSet returns the tracked paths of the repository (nil outside one).
// With refresh it re-checks that .git/index is unchanged (same file, size
// and modification time) and re-reads it otherwise.
func (m *Matcher) trackedSet(lr *lazyRoot, st *state, refresh bool) *tracked {
	if st.repo == nil {
		return nil
	}
	m.mu.RLock()
	t, loaded, old := st.tracked, st.indexLoaded, st.indexInfo
	m.mu.RUnlock()
	if loaded && !refresh {
		return t
	}
	name := path.Join(st.repo.gitDir, "index")
	fi, err := lr.lstat(name)
	if err != nil {
		fi = nil
	}
	if loaded && sameFile(old, fi) {
		return t
	}
	t = nil
	if fi != nil {
		if data, err := readInMax(lr, name, maxIndexSize); err == nil {
			t, _ = parseIndex(data, st.hashSize, func(name string) []byte {
				data, _ := readInMax(lr, path.Join(st.repo.gitDir, name), maxIndexSize)
				return data
			})
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	st.tracked, st.indexInfo, st.indexLoaded = t, fi, true
	return t
}

func sameFile(a, b os.FileInfo) bool {
	if a == nil || b == nil {
		return a == b
	}
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}
