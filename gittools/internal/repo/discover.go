package repo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/grove-mcp/grove/roots"
)

// Found is a repository located inside the roots, before it is opened.
type Found struct {
	Loc       roots.Loc // the worktree
	Worktree  string    // absolute real path
	GitDir    string    // absolute real path
	CommonDir string    // absolute real path
	Bare      bool      // a bare repository: Worktree is GitDir, and only its history may be read (see CheckBare)

	seen []pathCheck // what checkPlain saw of the git dir, for Vouch; nil from the general path
}

// StartDir resolves repoPath to a real directory inside sc and the root directory the walk must stop at. Its
// symlinks are read through the handles of the roots (see RealPath), never followed by path.
func StartDir(sc *roots.Scope, repoPath string) (start, top string, ok bool) {
	abs, ok := LexicalStart(sc, repoPath)
	if !ok {
		return "", "", false
	}
	real, ok := RealPath(sc, abs)
	if !ok {
		return "", "", false
	}
	loc, ok := sc.Locate(real)
	if !ok || loc.Root.File {
		return "", "", false
	}
	if fi, err := loc.Stat(); err != nil {
		return "", "", false
	} else if !fi.IsDir() {
		real = filepath.Dir(real)
	}
	return real, loc.Root.Path, true
}

// RealPath resolves the absolute path abs, lexically inside a root of sc, to its path without symlinks:
// each symlink is read (Readlink) through the handle of the root holding it, and one that leads into
// another root of sc is followed there. A missing component, a symlink loop and a path that leaves every
// root give false.
func RealPath(sc *roots.Scope, abs string) (string, bool) {
	for range maxMetaLinks {
		loc, ok := sc.Locate(abs)
		if !ok {
			return "", false
		}
		m, ok := metaRootOf(loc)
		if !ok || !m.intact() {
			return "", false
		}
		real, next, ok := m.walk("", loc.Abs()) // loc.Abs: below the root's real path, also for an alias
		if ok {
			return real, true
		}
		if next == "" {
			return "", false
		}
		abs = next
	}
	return "", false
}

// CheckRepo validates the repository whose worktree is dir and whose .git entry is described by fi. Its
// metadata (.git file, commondir, alternates, config) is read through confined handles: each path it names is
// resolved, and its file read, through the os.Root of the root of sc that holds it, so a linked worktree or
// submodule whose git dir lies in another root is read through that root's handle. A path outside every root
// gives an *OutsideRootsError; any other failure false. A config file too big to check is logged for the
// client (see noted).
func CheckRepo(sc *roots.Scope, dir string, fi os.FileInfo, log *slog.Logger) (Found, bool, error) {
	loc, ok := sc.Locate(dir)
	if !ok {
		return Found{}, false, nil
	}
	ms := metaRoots{sc: sc}
	m, ok := ms.of(dir)
	if !ok {
		return Found{}, false, nil
	}
	f, ok := checkPlain(m, dir, fi)
	if !ok {
		var err error
		if f, ok, err = checkLayout(ms, m, dir, fi, log); !ok || err != nil {
			return Found{}, false, err
		}
	}
	f.Loc = loc
	return f, true, nil
}

// checkLayout is CheckRepo for any layout, every name resolved from the root holding it (Found.Loc left out).
func checkLayout(ms metaRoots, m metaRoot, dir string, fi os.FileInfo, log *slog.Logger) (Found, bool, error) {
	gitDir, ok, err := gitDirOf(ms, m, dir, fi)
	if !ok || err != nil {
		return Found{}, false, err
	}
	gm, _ := ms.of(gitDir)
	if _, err := gm.stat(filepath.Join(gitDir, "HEAD")); err != nil {
		return Found{}, false, nil
	}
	commonDir, ok, err := commonDirOf(ms, gm, gitDir)
	if !ok || err != nil {
		return Found{}, false, err
	}
	cm, _ := ms.of(commonDir)
	if objects := filepath.Join(commonDir, "objects"); !cm.inside(objects) || !alternatesInside(ms, cm, objects, 0) {
		return Found{}, false, nil
	}
	if !worktreeConfigOK(ms, dir, gitDir, commonDir, log) {
		return Found{}, false, nil
	}
	return Found{Worktree: dir, GitDir: gitDir, CommonDir: commonDir}, true, nil
}

// OutsideRootsError refuses a repository whose git dir (named by its .git file) or common dir lies outside
// every root. It says no more than the .git file, which the client may read anyway.
type OutsideRootsError struct {
	Worktree string // the worktree's file:// URI
	Named    string // what the .git file names ("" when it is the commondir that lies outside)
}

func (e *OutsideRootsError) Error() string {
	what := fmt.Sprintf("its .git file names the git directory %q, which is outside every root", e.Named)
	add := "the directory holding it (for a linked worktree, the main repository)"
	if e.Named == "" {
		what = "its git directory belongs to a repository (the commondir of a linked worktree) outside every root"
		add = "the main repository"
	}
	return fmt.Sprintf("cannot read the git repository at %s: %s; grove reads only inside its roots: add %s as a root "+
		"(the --root flag, or the client's roots) to read it", e.Worktree, what, add)
}

// metaRoots finds the confined handle (a metaRoot) of the root holding a path.
type metaRoots struct{ sc *roots.Scope }

func (ms metaRoots) of(p string) (metaRoot, bool) {
	loc, ok := ms.sc.Locate(p)
	if !ok {
		return metaRoot{}, false
	}
	return metaRootOf(loc)
}

// resolve resolves the path text p, named by a file in m's root and relative to base, through the handle of
// the root that holds it: m's, or, when p leaves m's root lexically, the root of sc holding it. outside
// reports that p lies in no root at all.
func (ms metaRoots) resolve(m metaRoot, base, p string) (real string, ok, outside bool) {
	if real, ok := m.realPath(base, p); ok {
		return real, true, false
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(base, p)
	}
	if m.inside(abs) {
		return "", false, false
	}
	other, found := ms.of(abs)
	if !found {
		return "", false, true
	}
	real, ok = other.realPath("", abs)
	return real, ok, false
}

// gitDirOf follows a `.git` directory, symlink or `gitdir:` file to the real git dir.
func gitDirOf(ms metaRoots, m metaRoot, dir string, fi os.FileInfo) (string, bool, error) {
	p := filepath.Join(dir, ".git")
	if fi.Mode().IsRegular() {
		line, ok := m.firstLine(p)
		target, found := strings.CutPrefix(line, "gitdir: ")
		if !ok || !found || target == "" {
			return "", false, nil
		}
		p = target
	}
	real, ok, outside := ms.resolve(m, dir, p)
	if outside && fi.Mode().IsRegular() {
		return "", false, &OutsideRootsError{Worktree: roots.URI(dir), Named: p}
	}
	if !ok {
		return "", false, nil
	}
	rm, _ := ms.of(real)
	if st, err := rm.stat(real); err != nil || !st.IsDir() {
		return "", false, nil
	}
	return real, true, nil
}

// commonDirOf reads the commondir file of a linked worktree's git dir.
func commonDirOf(ms metaRoots, m metaRoot, gitDir string) (string, bool, error) {
	data, err := m.read(filepath.Join(gitDir, "commondir"))
	if os.IsNotExist(err) {
		return gitDir, true, nil
	}
	if err != nil {
		return "", false, nil
	}
	line, _, _ := strings.Cut(string(data), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "", false, nil
	}
	real, ok, outside := ms.resolve(m, gitDir, line)
	if outside {
		return "", false, &OutsideRootsError{Worktree: roots.URI(filepath.Dir(gitDir))}
	}
	return real, ok, nil
}

// maxAlternateDepth is git's own limit on chained alternates.
const maxAlternateDepth = 5

// alternatesInside reports whether every alternate object directory (recursively) lies inside the roots.
func alternatesInside(ms metaRoots, m metaRoot, objects string, depth int) bool {
	data, err := m.read(filepath.Join(objects, "info", "alternates"))
	if err != nil {
		return os.IsNotExist(err)
	}
	if depth >= maxAlternateDepth {
		return false
	}
	sc2 := bufio.NewScanner(bytes.NewReader(data))
	for sc2.Scan() {
		line := strings.TrimSpace(sc2.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		real, ok, _ := ms.resolve(m, objects, line)
		if !ok {
			return false
		}
		if am, _ := ms.of(real); !alternatesInside(ms, am, real, depth+1) {
			return false
		}
	}
	return true
}

// worktreeConfigOK accepts a core.worktree setting only when it names dir itself.
func worktreeConfigOK(ms metaRoots, dir, gitDir, commonDir string, log *slog.Logger) bool {
	for _, p := range []string{filepath.Join(commonDir, "config"), filepath.Join(gitDir, "config.worktree")} {
		m, _ := ms.of(p)
		data, err := m.read(p)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			if errors.Is(err, errTooBigMeta) {
				log.Warn("repository file refused", slog.String("audience", "client"), slog.String("repo", roots.URI(dir)),
					slog.String("file", ".git/"+filepath.Base(p)), slog.String("reason", "it is over the "+patchtext.SizeText(maxMetaFile)+" limit grove reads"))
			}
			return false
		}
		cfg := config.New()
		if err := config.NewDecoder(bytes.NewReader(data)).Decode(cfg); err != nil {
			return false
		}
		wt := cfg.Section("core").Option("worktree")
		if wt == "" {
			continue
		}
		if real, ok, _ := ms.resolve(m, gitDir, wt); !ok || real != dir {
			return false
		}
	}
	return true
}

// checkPlain is CheckRepo for the layout nearly every repository has: dir, symlink-free, holds a .git
// directory (fi) whose HEAD and config are regular files and whose objects is a directory, with no commondir,
// alternates, config.worktree or worktree setting. It opens the .git directory once through m's handle and
// looks at each entry relative to that handle, where the general path resolves every name from the root,
// component by component, with a Readlink and an Lstat each (some 70 system calls against some 15). What it
// saw is kept for Vouch (Found.seen), each stat taken before the decision it vouches for. ok is false for any
// other layout, or when anything is in doubt (a symlink, an unreadable entry): the general path then decides,
// and logs what it refuses.
func checkPlain(m metaRoot, dir string, fi os.FileInfo) (f Found, ok bool) {
	if !fi.IsDir() {
		return Found{}, false
	}
	if real, ok := m.realPath("", dir); !ok || real != dir {
		return Found{}, false
	}
	gitDir := filepath.Join(dir, ".git")
	name, ok := m.name(gitDir)
	if !ok {
		return Found{}, false
	}
	g, err := m.fs.OpenRoot(name)
	if err != nil {
		return Found{}, false
	}
	defer g.Close()
	if gi, err := g.Stat("."); err != nil || !os.SameFile(gi, fi) {
		return Found{}, false // swapped since fi was taken
	}
	p := plainProbe{g: g, gitDir: gitDir, ok: true}
	p.seen = append(p.seen, pathCheck{path: gitDir, kind: sameDir, key: statKey{mode: uint32(fi.Mode()), ino: Inode(fi)}})
	p.regular("HEAD")
	p.absent("commondir")
	p.dir("objects")
	p.absent(filepath.Join("objects", "info", "alternates"))
	p.absent("config.worktree")
	p.config()
	if !p.ok {
		return Found{}, false
	}
	return Found{Worktree: dir, GitDir: gitDir, CommonDir: gitDir, seen: p.seen}, true
}

// plainProbe looks at the entries of a git dir through its handle g for checkPlain; ok turns false at the
// first that is not what the plain layout has.
type plainProbe struct {
	g      *os.Root
	gitDir string
	seen   []pathCheck
	ok     bool
}

// lstat describes name below the git dir without following it and records it as a check of the given kind;
// ok turns false when it is not of that kind.
func (p *plainProbe) lstat(name string, kind checkKind) {
	if !p.ok {
		return
	}
	fi, err := p.g.Lstat(name)
	c := pathCheck{path: filepath.Join(p.gitDir, name), kind: kind}
	switch {
	case kind == mustBeAbsent:
		p.ok = errors.Is(err, fs.ErrNotExist)
	case err != nil || Inode(fi) == 0:
		p.ok = false
	case kind == sameDir:
		p.ok, c.key = fi.IsDir(), statKey{mode: uint32(fi.Mode()), ino: Inode(fi)}
	default:
		p.ok, c.key = fi.Mode().IsRegular(), KeyOf(fi)
	}
	if p.ok {
		p.seen = append(p.seen, c)
	}
}

func (p *plainProbe) regular(name string) { p.lstat(name, sameFile) }
func (p *plainProbe) dir(name string)     { p.lstat(name, sameDir) }
func (p *plainProbe) absent(name string)  { p.lstat(name, mustBeAbsent) }

// config checks the repository config: absent, or a regular file that does not mention worktrees (a
// core.worktree is a path the general path resolves and checks; extensions.worktreeConfig brings in
// config.worktree). Stat before read: a change in between leaves a check that no longer holds.
func (p *plainProbe) config() {
	if !p.ok {
		return
	}
	fi, err := p.g.Lstat("config")
	c := pathCheck{path: filepath.Join(p.gitDir, "config"), kind: mustBeAbsent}
	if !errors.Is(err, fs.ErrNotExist) {
		if err != nil || !fi.Mode().IsRegular() || Inode(fi) == 0 {
			p.ok = false
			return
		}
		c.kind, c.key = sameFile, KeyOf(fi)
	}
	p.seen = append(p.seen, c)
	if c.kind == mustBeAbsent {
		return
	}
	if testHookBeforeRead != nil {
		testHookBeforeRead(c.path)
	}
	data, err := readSmallIn(p.g, "config")
	if err != nil || bytes.Contains(bytes.ToLower(data), []byte("worktree")) {
		p.ok = false
		return
	}
	if err := config.NewDecoder(bytes.NewReader(data)).Decode(config.New()); err != nil {
		p.ok = false
	}
}
