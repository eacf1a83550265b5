package ignore

import (
	"os"
	"path"
	"slices"
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

// SetTracked hands the matcher the tracked paths of its repository's index, parsed by the caller from the
// index file that fi describes (git status parses it anyway), so that the matcher need not parse that
// file again. It uses them as it would a copy it read itself: for as long as its own look at the index
// finds that same file, size and time; a changed or different file is read as before. names returns the
// index's entry names in index order (a conflicted path's stages repeating its name), in a slice the
// matcher keeps; it is called only if the matcher takes them. Outside a repository whose index the matcher reads, it does nothing.
func (m *Matcher) SetTracked(fi os.FileInfo, names func() []string) {
	if fi == nil {
		return
	}
	lr := m.lazy()
	defer lr.close()
	st := m.state(lr)
	if st.repo == nil {
		return
	}
	// Ignored trusts the set it has without looking at the index again: take names only from the file
	// the matcher itself would read.
	if cur, err := lr.lstat(path.Join(st.repo.gitDir, "index")); err != nil || !sameFile(cur, fi) {
		return
	}
	m.mu.RLock()
	same := st.indexLoaded && sameFile(st.indexInfo, fi)
	m.mu.RUnlock()
	if same {
		return
	}
	paths := names()
	if !slices.IsSorted(paths) {
		return // not an index git wrote: let the matcher read it
	}
	t := &tracked{paths: slices.Compact(paths)}
	m.mu.Lock()
	defer m.mu.Unlock()
	st.tracked, st.indexInfo, st.indexLoaded = t, fi, true
}
