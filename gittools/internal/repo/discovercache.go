package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/grove-mcp/grove/roots"
)

// A discovery (discover) costs some forty stat calls and a config parse. open remembers it per scope and
// path, with the stat data of every path its answer depends on, and reuses it while a re-stat of those
// paths (a dozen lstat calls) shows nothing changed. Only the plain layout is remembered: no symlink
// anywhere on the way, a .git directory with no commondir, alternates, config.worktree or core.worktree.
// Anything else (linked worktrees, submodules' gitdir: files, symlinked roots) is discovered on every call.
//
// What the stamps cover: every directory from the root down to the start path (a swap for another directory
// or a symlink changes its inode or mode), each dir/.git probed on the way up (absent, or the .git directory),
// and the files read (HEAD, config) or required absent. A file younger than racyWindow is not trusted. Every
// stamp is taken, and checked, through the handle of the root holding the path (lstatIn): what lies above a
// root is not consulted, since roots opened the root's directory once and keeps it.

// DiscoverKey identifies a discovery: the same path argument under the same roots. The server builds a new
// Scope per request, so the key is the roots' values, not the pointer; what else a discovery takes from the
// scope (the lexical resolution of the path, the root Loc) is recomputed on every reuse.
type DiscoverKey struct {
	roots    string
	RepoPath string
}

func DiscoverKeyOf(sc *roots.Scope, repoPath string) DiscoverKey {
	var b strings.Builder
	for _, r := range sc.Roots() {
		fmt.Fprintf(&b, "%q %q %q %q %t\n", r.URI, r.Path, r.Name, r.Source, r.File)
	}
	return DiscoverKey{roots: b.String(), RepoPath: repoPath}
}

// Discovered is a remembered discovery and the stat data that vouch for it.
type Discovered struct {
	Found  Found
	Start  string // the path discovery started from, before a file's directory was taken
	Checks []pathCheck
}

// pathCheck is one path and what lstat must still say about it.
type pathCheck struct {
	path string
	kind checkKind
	key  statKey // mode and inode for a directory; everything for a file
}

type checkKind uint8

const (
	mustBeAbsent checkKind = iota
	sameDir
	sameFile
	rootIntact // the root holding path still is at its path (metaRoot.intact)
)

// MaxDiscovered bounds the discoveries a repository remembers (scopes can change per request).
const MaxDiscovered = 16

// lstatIn describes the absolute path p, without following a final symlink, through the handle of the root
// of sc holding it.
func lstatIn(sc *roots.Scope, p string) (fs.FileInfo, error) {
	loc, ok := sc.Locate(p)
	if !ok {
		return nil, roots.ErrNotFound
	}
	return loc.Lstat()
}

// Holds reports whether the path, looked up through the handles of sc, still is what was vouched for.
func (c pathCheck) Holds(sc *roots.Scope) bool {
	if c.kind == rootIntact {
		loc, ok := sc.Locate(c.path)
		m, found := metaRootOf(loc)
		return ok && found && m.intact()
	}
	fi, err := lstatIn(sc, c.path)
	if c.kind == mustBeAbsent {
		return errors.Is(err, fs.ErrNotExist)
	}
	if err != nil {
		return false
	}
	k := KeyOf(fi)
	if c.kind == sameDir {
		return fi.IsDir() && k.mode == c.key.mode && k.ino == c.key.ino
	}
	return k == c.key
}

// Vouch lists the checks that keep f, discovered from start, valid; false when f's layout is not one we
// remember. It checks the current state itself, so a change while discover ran cannot slip in.
func Vouch(sc *roots.Scope, start string, f Found, now time.Time) ([]pathCheck, bool) {
	if f.GitDir != filepath.Join(f.Worktree, ".git") || f.CommonDir != f.GitDir || !Within(f.Worktree, start) && start != f.Worktree {
		return nil, false
	}
	loc, ok := sc.Locate(start)
	if !ok || loc.Root.File {
		return nil, false
	}
	top := filepath.Clean(loc.Root.Path)
	if start != top && !Within(top, start) {
		return nil, false // start lies below an alias of the root: not remembered
	}
	v := voucher{sc: sc, limit: now.Add(-RacyWindow).UnixNano(), ok: true}
	v.checks = append(v.checks, pathCheck{path: top, kind: rootIntact})
	for p := start; ; p = filepath.Dir(p) {
		v.existing(p)
		if p == top || p == filepath.Dir(p) {
			break
		}
	}
	dir := start
	if len(v.checks) > 1 && v.checks[1].kind != sameDir {
		dir = filepath.Dir(start) // a file: discovery starts in its directory
	}
	for ; dir != f.Worktree && dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		v.absent(filepath.Join(dir, ".git"))
	}
	if f.seen != nil {
		v.seen(f.seen)
		return v.checks, v.ok
	}
	v.existing(f.GitDir)
	v.existing(filepath.Join(f.GitDir, "HEAD"))
	v.absent(filepath.Join(f.GitDir, "commondir"))
	v.existing(filepath.Join(f.GitDir, "objects"))
	v.absent(filepath.Join(f.GitDir, "objects", "info", "alternates"))
	v.absent(filepath.Join(f.GitDir, "config.worktree"))
	v.config(filepath.Join(f.GitDir, "config"))
	return v.checks, v.ok
}

// seen takes the checks of the git dir that checkPlain recorded while it decided, each stat taken before the
// decision it vouches for, instead of taking them again; a file among them younger than the limit is not
// trusted, as existing does not trust one.
func (v *voucher) seen(checks []pathCheck) {
	for _, c := range checks {
		if c.kind == sameFile && (c.key.mtime >= v.limit || c.key.ctime >= v.limit) {
			v.ok = false
			return
		}
		v.checks = append(v.checks, c)
	}
}

// LexicalStart is the absolute path repoPath names in sc, without resolving symlinks (vouch refuses any).
func LexicalStart(sc *roots.Scope, repoPath string) (string, bool) {
	if repoPath == "" {
		rs := sc.Roots()
		if len(rs) != 1 || rs[0].File {
			return "", false
		}
		return filepath.Clean(rs[0].Path), true
	}
	loc, err := sc.Resolve(repoPath)
	if err != nil {
		return "", false
	}
	return loc.Abs(), true
}

// voucher collects checks; ok turns false at the first path that can't be vouched for.
type voucher struct {
	sc     *roots.Scope
	checks []pathCheck
	limit  int64 // files modified after this (UnixNano) are too young to trust
	ok     bool
}

// existing requires p to be a directory or a regular file, not a symlink, and to stay the same.
func (v *voucher) existing(p string) {
	fi, err := lstatIn(v.sc, p)
	if err != nil {
		v.ok = false
		return
	}
	k := KeyOf(fi)
	switch {
	case fi.IsDir() && k.ino != 0:
		v.checks = append(v.checks, pathCheck{path: p, kind: sameDir, key: statKey{mode: k.mode, ino: k.ino}})
	case fi.Mode().IsRegular() && k.ino != 0 && k.mtime < v.limit && k.ctime < v.limit:
		v.checks = append(v.checks, pathCheck{path: p, kind: sameFile, key: k})
	default:
		v.ok = false
	}
}

func (v *voucher) absent(p string) {
	if _, err := lstatIn(v.sc, p); !errors.Is(err, fs.ErrNotExist) {
		v.ok = false
		return
	}
	v.checks = append(v.checks, pathCheck{path: p, kind: mustBeAbsent})
}

// config vouches for the repository config: absent, or a regular file that doesn't mention worktrees
// (core.worktree is a path discovery would have to resolve again). Stat before read: a change in between
// leaves a stamp that no longer matches.
func (v *voucher) config(p string) {
	if _, err := lstatIn(v.sc, p); errors.Is(err, fs.ErrNotExist) {
		v.absent(p)
		return
	}
	v.existing(p)
	loc, _ := v.sc.Locate(p)
	data, err := readSmallIn(loc.FS(), loc.Name())
	if err != nil || bytes.Contains(bytes.ToLower(data), []byte("worktree")) {
		v.ok = false
	}
}
