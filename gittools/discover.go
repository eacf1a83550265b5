package gittools

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/grove-mcp/grove/roots"
)

// found is a repository located inside the roots, before it is opened.
type found struct {
	loc       roots.Loc // the worktree
	worktree  string    // absolute real path
	gitDir    string    // absolute real path
	commonDir string    // absolute real path
}

// discover finds the repository containing repoPath, walking up but never above the root that holds it, and
// refuses it unless the git dir, commondir, alternates and core.worktree all lie inside sc.
func (r *Repos) discover(sc *roots.Scope, repoPath string) (found, error) {
	start, top, ok := startDir(sc, repoPath)
	if !ok {
		return found{}, errNoRepo(repoPath)
	}
	for dir := start; ; dir = filepath.Dir(dir) {
		if fi, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			f, ok := checkRepo(sc, dir, fi)
			if !ok {
				return found{}, errNoRepo(repoPath)
			}
			return f, nil
		}
		if dir == top || dir == filepath.Dir(dir) {
			return found{}, errNoRepo(repoPath)
		}
	}
}

// startDir resolves repoPath to a real directory inside sc and the root directory the walk must stop at.
func startDir(sc *roots.Scope, repoPath string) (start, top string, ok bool) {
	var abs string
	if repoPath == "" {
		rs := sc.Roots()
		if len(rs) != 1 || rs[0].File {
			return "", "", false
		}
		abs = rs[0].Path
	} else {
		loc, err := sc.Resolve(repoPath)
		if err != nil {
			return "", "", false
		}
		abs = loc.Abs()
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil || !sc.ContainsReal(real) {
		return "", "", false
	}
	loc, ok := sc.Locate(real)
	if !ok || loc.Root.File {
		return "", "", false
	}
	if fi, err := os.Stat(real); err != nil {
		return "", "", false
	} else if !fi.IsDir() {
		real = filepath.Dir(real)
	}
	return real, loc.Root.Path, true
}

// checkRepo validates the repository whose worktree is dir and whose .git entry is described by fi.
func checkRepo(sc *roots.Scope, dir string, fi os.FileInfo) (found, bool) {
	gitDir, ok := gitDirOf(dir, fi)
	if !ok || !sc.ContainsReal(gitDir) {
		return found{}, false
	}
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
		return found{}, false
	}
	commonDir, ok := commonDirOf(gitDir)
	if !ok || !sc.ContainsReal(commonDir) {
		return found{}, false
	}
	if !alternatesInside(sc, filepath.Join(commonDir, "objects"), 0) {
		return found{}, false
	}
	if !worktreeConfigOK(sc, dir, gitDir, commonDir) {
		return found{}, false
	}
	loc, ok := sc.Locate(dir)
	if !ok {
		return found{}, false
	}
	return found{loc: loc, worktree: dir, gitDir: gitDir, commonDir: commonDir}, true
}

// gitDirOf follows a `.git` directory, symlink or `gitdir:` file to the real git dir.
func gitDirOf(dir string, fi os.FileInfo) (string, bool) {
	p := filepath.Join(dir, ".git")
	if fi.Mode().IsRegular() {
		line, ok := firstLine(p)
		target, found := strings.CutPrefix(line, "gitdir: ")
		if !ok || !found || target == "" {
			return "", false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		p = target
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return "", false
	}
	return real, true
}

// commonDirOf reads the commondir file of a linked worktree's git dir.
func commonDirOf(gitDir string) (string, bool) {
	p := filepath.Join(gitDir, "commondir")
	if _, err := os.Lstat(p); err != nil {
		return gitDir, true
	}
	line, ok := firstLine(p)
	if !ok || line == "" {
		return "", false
	}
	if !filepath.IsAbs(line) {
		line = filepath.Join(gitDir, line)
	}
	real, err := filepath.EvalSymlinks(line)
	return real, err == nil
}

// maxAlternateDepth is git's own limit on chained alternates.
const maxAlternateDepth = 5

// alternatesInside reports whether every alternate object directory (recursively) lies inside sc.
func alternatesInside(sc *roots.Scope, objects string, depth int) bool {
	data, err := readSmall(filepath.Join(objects, "info", "alternates"))
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
		if !filepath.IsAbs(line) {
			line = filepath.Join(objects, line)
		}
		real, err := filepath.EvalSymlinks(line)
		if err != nil || !sc.ContainsReal(real) || !alternatesInside(sc, real, depth+1) {
			return false
		}
	}
	return true
}

// worktreeConfigOK accepts a core.worktree setting only when it names dir itself (inside sc).
func worktreeConfigOK(sc *roots.Scope, dir, gitDir, commonDir string) bool {
	for _, p := range []string{filepath.Join(commonDir, "config"), filepath.Join(gitDir, "config.worktree")} {
		data, err := readSmall(p)
		if err != nil {
			if os.IsNotExist(err) {
				continue
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
		if !filepath.IsAbs(wt) {
			wt = filepath.Join(gitDir, wt)
		}
		real, err := filepath.EvalSymlinks(wt)
		if err != nil || real != dir || !sc.ContainsReal(real) {
			return false
		}
	}
	return true
}

// maxMetaFile bounds what we read of git's small metadata files (.git, commondir, alternates, config).
const maxMetaFile = 1 << 20

// readSmall reads a regular file of at most maxMetaFile bytes; anything else is an error.
func readSmall(p string) ([]byte, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		// a symlinked config is common enough (dotfile managers); follow it, but only to a regular file
		if fi, err = os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			return nil, errNotRegularMeta
		}
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxMetaFile))
}

func firstLine(p string) (string, bool) {
	data, err := readSmall(p)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return strings.TrimSpace(line), true
}

var errNotRegularMeta = errors.New("not a regular file")

// IsRepo reports whether dir (absolute) is inside a git worktree: dir or a parent holds a .git directory, or a
// .git file naming one. It looks only at the file system; the tools still refuse repositories whose git dir,
// commondir or alternates lie outside the roots of the request.
func (r *Repos) IsRepo(dir string) bool {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if fi, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			_, ok := gitDirOf(d, fi)
			return ok
		}
		if d == filepath.Dir(d) {
			return false
		}
	}
}
