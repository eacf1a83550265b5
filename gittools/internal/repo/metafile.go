package repo

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/grove-mcp/grove/roots"
)

// maxMetaFile bounds what we read of git's small metadata files (.git, commondir, alternates, config).
const maxMetaFile = 1 << 20

// metaRoot is the one confined handle discovery reads a repository's metadata through: the os.Root that
// roots opened on the root holding the worktree. A name is decided once (lexically under the root's path) and
// then opened through the handle, so the kernel keeps the open beneath the root: a file swapped for a symlink
// to elsewhere after the decision is refused, not read. Nothing is checked by path before the open.
type metaRoot struct {
	fs  *os.Root
	dir string // the root's directory, symlinks resolved (roots.Root.Path)
}

// metaRootOf returns the handle of the directory root holding loc.
func metaRootOf(loc roots.Loc) (metaRoot, bool) {
	if loc.Root.File || loc.FS() == nil {
		return metaRoot{}, false
	}
	return metaRoot{fs: loc.FS(), dir: filepath.Clean(loc.Root.Path)}, true
}

// intact reports whether the root's path still names the directory its handle holds. The handle follows the
// directory wherever it is moved: a root moved away (out of every root, say) and replaced by a symlink or
// another directory must not be read through its handle as if nothing happened. This stat of the root's own
// path, which the operator or client named, is the one lookup by path a repository read makes.
func (m metaRoot) intact() bool {
	fi, err := os.Lstat(m.dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	hi, err := m.fs.Stat(".")
	return err == nil && os.SameFile(fi, hi)
}

// name maps the absolute path p to its name below the root; false when p is not lexically under it.
func (m metaRoot) name(p string) (string, bool) {
	rel, err := filepath.Rel(m.dir, filepath.Clean(p))
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", false
	}
	return rel, true
}

// decide maps p to the name to open: with its symlinks resolved inside the root when it exists (os.Root refuses
// absolute symlinks, even to inside the root, and a symlinked config is common enough), otherwise lexically.
// The name is only a decision: the open goes through the handle, so whatever p becomes meanwhile cannot lead
// out of the root.
func (m metaRoot) decide(p string) (string, bool) {
	if real, ok := m.realPath("", p); ok {
		p = real
	}
	return m.name(p)
}

// maxMetaLinks bounds the symlinks followed to resolve one path, as the kernel bounds them (ELOOP).
const maxMetaLinks = 40

// realPath resolves the path text p (relative to the absolute directory base, or absolute) to an absolute path
// without symlinks, following every symlink with Readlink through the handle, so nothing outside the root is
// consulted. A link, absolute path or ".." that leaves the root, a missing component and more than
// maxMetaLinks links all give false. ".." steps back over a component already resolved, as the kernel does.
func (m metaRoot) realPath(base, p string) (string, bool) {
	real, _, ok := m.walk(base, p)
	return real, ok
}

// walk is realPath that, when the path leaves the root (an absolute symlink elsewhere, or ".." above the
// root), also returns the absolute path left to resolve from there, for the root that may hold it.
func (m metaRoot) walk(base, p string) (real, next string, ok bool) {
	if !filepath.IsAbs(p) {
		p = base + string(filepath.Separator) + p
	}
	todo, ok := m.components(p)
	if !ok {
		return "", "", false
	}
	rest := func(head string) string {
		return filepath.Join(append([]string{head}, todo...)...)
	}
	resolved, hops := "", 0 // slash-separated below the root, symlink-free; "" is the root
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if resolved == "" {
				return "", rest(filepath.Dir(m.dir)), false
			}
			if resolved = path.Dir(resolved); resolved == "." {
				resolved = ""
			}
			continue
		}
		next := path.Join(resolved, c)
		link, err := m.fs.Readlink(filepath.FromSlash(next))
		if err != nil {
			if _, err := m.fs.Lstat(filepath.FromSlash(next)); err != nil {
				return "", "", false
			}
			resolved = next // not a symlink
			continue
		}
		if hops++; hops > maxMetaLinks {
			return "", "", false
		}
		if filepath.IsAbs(link) {
			more, ok := m.components(link)
			if !ok {
				return "", rest(link), false
			}
			resolved, todo = "", append(more, todo...)
		} else {
			todo = append(strings.Split(filepath.ToSlash(link), "/"), todo...)
		}
	}
	return filepath.Join(m.dir, filepath.FromSlash(resolved)), "", true
}

// components splits the absolute path p, which must start with the root's path (compared as text, before any
// ".." in p is applied), into the components below the root.
func (m metaRoot) components(p string) ([]string, bool) {
	rest, ok := strings.CutPrefix(p, m.dir)
	if !ok || rest != "" && rest[0] != filepath.Separator && m.dir != string(filepath.Separator) {
		return nil, false
	}
	return strings.Split(filepath.ToSlash(rest), "/"), true
}

// inside reports whether the absolute path p lies lexically under the root.
func (m metaRoot) inside(p string) bool {
	_, ok := m.name(p)
	return ok
}

// stat describes p, following symlinks only as far as the root allows.
func (m metaRoot) stat(p string) (os.FileInfo, error) {
	name, ok := m.decide(p)
	if !ok {
		return nil, errOutsideMeta
	}
	return m.fs.Stat(name)
}

// testHookBeforeRead, when set by a test, runs just before a metadata file is opened (after its name was
// decided), so a test can swap the file at the worst moment.
var testHookBeforeRead func(p string)

// read reads the regular file p (at most maxMetaFile bytes; a bigger one is refused, not cut) through the
// handle. A symlink in the way is followed only while it stays beneath the root.
func (m metaRoot) read(p string) ([]byte, error) {
	name, ok := m.decide(p)
	if !ok {
		return nil, errOutsideMeta
	}
	if testHookBeforeRead != nil {
		testHookBeforeRead(p)
	}
	f, err := m.fs.OpenFile(name, os.O_RDONLY|gitfmt.OpenNoBlock, 0)
	if err != nil {
		if _, lerr := m.fs.Lstat(name); os.IsNotExist(err) && lerr == nil {
			return nil, errNotRegularMeta // a dangling symlink is not an absent file
		}
		return nil, err
	}
	return readOpened(f)
}

// readSmallIn reads the regular file name below dir, for reads after discovery decided the repository (the
// object store's alternates, shallow); see metaRoot.read for discovery itself.
func readSmallIn(dir *os.Root, name string) ([]byte, error) {
	f, err := dir.OpenFile(name, os.O_RDONLY|gitfmt.OpenNoBlock, 0)
	if err != nil {
		return nil, err
	}
	return readOpened(f)
}

// readOpened checks the opened file f (regular, at most maxMetaFile bytes), reads it and closes it.
func readOpened(f *os.File) ([]byte, error) {
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, errNotRegularMeta
	}
	if fi.Size() > maxMetaFile {
		return nil, errTooBigMeta
	}
	data, err := io.ReadAll(io.LimitReader(f, maxMetaFile+1))
	if err == nil && len(data) > maxMetaFile {
		return nil, errTooBigMeta
	}
	return data, err
}

func (m metaRoot) firstLine(p string) (string, bool) {
	data, err := m.read(p)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(line), true
}

var (
	errNotRegularMeta = gitfmt.ErrNotRegular
	errOutsideMeta    = errors.New("outside the roots")
	errTooBigMeta     = fmt.Errorf("larger than %s", patchtext.SizeText(maxMetaFile))
)
