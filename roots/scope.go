package roots

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Scope is an immutable snapshot of the roots in force for a request.
type Scope struct {
	entries []*entry // in configured order
	deepest []*entry // longest path first, for resolution
}

func newScope(es []*entry) *Scope {
	sc := &Scope{entries: es, deepest: slices.Clone(es)}
	slices.SortStableFunc(sc.deepest, func(a, b *entry) int { return len(b.Path) - len(a.Path) })
	return sc
}

// Roots returns the roots of the scope.
func (sc *Scope) Roots() []Root {
	out := make([]Root, len(sc.entries))
	for i, e := range sc.entries {
		out[i] = e.Root
	}
	return out
}

// Empty reports whether nothing is reachable.
func (sc *Scope) Empty() bool { return sc == nil || len(sc.entries) == 0 }

// Resolve maps what a client sent — an absolute path, a file:// URI, or a
// path relative to the first root — to its location. Anything outside every
// root is [NotFound], exactly like a missing file.
func (sc *Scope) Resolve(pathOrURI string) (Loc, error) {
	abs, err := sc.absolute(pathOrURI)
	if err != nil {
		return Loc{}, err
	}
	if loc, ok := sc.Locate(abs); ok {
		return loc, nil
	}
	return Loc{}, NotFound(pathOrURI)
}

func (sc *Scope) absolute(s string) (string, error) {
	switch {
	case s == "":
		return "", &inputError{input: `""`, err: ErrNotFound}
	case strings.ContainsRune(s, 0):
		return "", NotFound(strings.ReplaceAll(s, "\x00", `\0`))
	case windowsGrammar && !isFileURI(s) && CheckWindowsPath(s) != nil:
		return "", &inputError{input: s, err: CheckWindowsPath(s)}
	case isFileURI(s):
		p, err := parse(s)
		if err != nil {
			return "", &inputError{input: s, err: err}
		}
		return p, nil
	case filepath.IsAbs(s):
		return filepath.Clean(s), nil
	case sc.Empty():
		return "", NotFound(s)
	}
	first := sc.entries[0]
	base := first.Path
	if first.File {
		base = filepath.Dir(base)
	}
	return filepath.Join(base, s), nil
}

// isFileURI reports whether s is to be parsed as a URI rather than taken as a path.
func isFileURI(s string) bool {
	return IsURI(s) && (strings.HasPrefix(strings.ToLower(s), "file:") || strings.Contains(s, "://"))
}

// Locate maps an absolute path to its location, if it lies inside a root.
// The test is lexical; opening through [Loc.FS] enforces the rest.
func (sc *Scope) Locate(abs string) (Loc, bool) {
	if sc == nil {
		return Loc{}, false
	}
	abs = filepath.Clean(abs)
	for _, e := range sc.deepest {
		for _, dir := range []string{e.Path, e.alias} {
			if dir == "" {
				continue
			}
			if e.File {
				if abs == dir {
					return Loc{Root: e.Root, Rel: filepath.Base(e.Path), fs: e.fs}, true
				}
				continue
			}
			if rel, ok := relTo(abs, dir); ok {
				return Loc{Root: e.Root, Rel: rel, fs: e.fs}, true
			}
		}
	}
	return Loc{}, false
}

// ContainsReal reports whether abs, with every symlink resolved, lies inside
// a root. Use it for paths grove did not open itself, such as a repository's
// git directory.
func (sc *Scope) ContainsReal(abs string) bool {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return false
	}
	for _, e := range sc.entries {
		if e.File && real == e.Path || !e.File && within(real, e.Path) {
			return true
		}
	}
	return false
}

// relTo returns path relative to dir, slash-separated, when path is dir or
// lies below it. Both must be clean and absolute. A sibling that merely shares
// a prefix (/a/proj-evil against /a/proj) is not below.
func relTo(path, dir string) (string, bool) {
	if path == dir {
		return ".", true
	}
	prefix := dir
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	rest, ok := strings.CutPrefix(path, prefix)
	if !ok {
		return "", false
	}
	return filepath.ToSlash(rest), true
}

// Loc is a file or directory inside a root.
type Loc struct {
	Root Root
	Rel  string // slash-separated, relative to FS(); "." for the root directory
	fs   *os.Root
}

// FS returns the opened root directory (a single-file root's parent). Every
// read and write goes through it with [Loc.Name].
func (l Loc) FS() *os.Root { return l.fs }

// Name returns Rel in OS form, for the methods of [os.Root].
func (l Loc) Name() string { return filepath.FromSlash(l.Rel) }

// Abs returns the absolute path (lexically: the root's path and Rel).
func (l Loc) Abs() string {
	base := l.Root.Path
	if l.Root.File {
		base = filepath.Dir(base)
	}
	if l.Rel == "." {
		return base
	}
	return filepath.Join(base, l.Name())
}

// URI returns the file:// URI of the location.
func (l Loc) URI() string { return URI(l.Abs()) }

// Join returns the location of rel (slash-separated) below l. Its use is
// lexical; the os.Root still refuses escapes when it is opened.
func (l Loc) Join(rel string) Loc {
	l.Rel = path.Join(l.Rel, rel)
	return l
}

// name returns the name to use with FS(). A single-file root's FS() is its
// parent directory, so there only the file itself may be named.
func (l Loc) name() (string, error) {
	if l.fs == nil || l.Root.File && l.Rel != filepath.Base(l.Root.Path) {
		return "", ErrNotFound
	}
	return l.Name(), nil
}

// Lstat describes the location without following a final symlink.
func (l Loc) Lstat() (fs.FileInfo, error) {
	name, err := l.name()
	if err != nil {
		return nil, err
	}
	return l.fs.Lstat(name)
}

// Stat describes the location, following symlinks only inside the root.
func (l Loc) Stat() (fs.FileInfo, error) {
	name, err := l.name()
	if err != nil {
		return nil, err
	}
	if l.Root.File {
		return l.fileRootInfo(name)
	}
	info, err := l.fs.Stat(name)
	if err != nil && isEscape(err) {
		if t, ok := l.target(); ok {
			return l.fs.Stat(t)
		}
	}
	return info, err
}

// fileRootInfo describes a single-file root, which must not be a symlink:
// one swapped in would reach the siblings its parent directory holds.
func (l Loc) fileRootInfo(name string) (fs.FileInfo, error) {
	info, err := l.fs.Lstat(name)
	if err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return nil, ErrNotFound
	}
	return info, err
}

// target returns, for a location reached through an absolute symlink (which
// os.Root refuses), its name relative to FS() with every absolute link
// replaced by its target, when that lies in the root. Link texts are cleaned
// lexically, never resolved on disk, so what exists outside the root cannot
// change the outcome; os.Root checks the result again when it is opened.
func (l Loc) target() (string, bool) {
	if l.Root.File {
		return "", false
	}
	name := l.Rel
	for range maxAbsLinks {
		next, changed, ok := l.followAbs(name)
		if !ok {
			return "", false
		}
		if !changed {
			return filepath.FromSlash(name), true
		}
		name = next
	}
	return "", false
}

// maxAbsLinks bounds the absolute symlinks followed for one name, as the
// kernel bounds symlinks (ELOOP).
const maxAbsLinks = 40

// followAbs replaces the first component of name (slash-separated) that is an
// absolute symlink by its target relative to the root.
func (l Loc) followAbs(name string) (next string, changed, ok bool) {
	parts := strings.Split(name, "/")
	for i := range parts {
		link, err := l.fs.Readlink(filepath.FromSlash(path.Join(parts[:i+1]...)))
		if err != nil || !filepath.IsAbs(link) {
			continue
		}
		rel, ok := relTo(filepath.Clean(link), l.Root.Path)
		if !ok {
			return "", false, false
		}
		return path.Join(rel, path.Join(parts[i+1:]...)), true, true
	}
	return name, false, true
}

// OpenFile opens a regular file for reading. It never blocks on a FIFO or
// device: those (and sockets) are refused with [ErrNotRegular], and
// directories with [ErrIsDir].
func (l Loc) OpenFile() (*os.File, fs.FileInfo, error) {
	name, err := l.name()
	if err != nil {
		return nil, nil, err
	}
	var before fs.FileInfo
	if l.Root.File {
		if before, err = l.fileRootInfo(name); err != nil {
			return nil, nil, err
		}
	}
	f, err := l.fs.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil && isEscape(err) {
		if t, ok := l.target(); ok {
			f, err = l.fs.OpenFile(t, os.O_RDONLY|openNonblock, 0)
		}
	}
	if err != nil {
		// open(2) of a socket fails (ENXIO) before any fstat could tell.
		if info, serr := l.fs.Stat(name); serr == nil && !info.IsDir() && !info.Mode().IsRegular() {
			return nil, nil, ErrNotRegular
		}
		return nil, nil, err
	}
	info, err := f.Stat()
	switch {
	case err != nil:
	case before != nil && !os.SameFile(before, info): // swapped between Lstat and open
		err = ErrNotFound
	case info.IsDir():
		err = ErrIsDir
	case !info.Mode().IsRegular():
		err = ErrNotRegular
	default:
		return f, info, nil
	}
	f.Close()
	return nil, nil, err
}
