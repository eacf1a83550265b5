package repo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
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
	return Found{Loc: loc, Worktree: dir, GitDir: gitDir, CommonDir: commonDir}, true, nil
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
