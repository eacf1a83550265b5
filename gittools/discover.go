package gittools

import (
	"bufio"
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/grove-mcp/grove/roots"
)

var errRepoPathRequired = errors.New("repo_path is required when there is more than one root")

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
	if repoPath == "" && len(sc.Roots()) > 1 {
		return found{}, errRepoPathRequired
	}
	start, top, ok := startDir(sc, repoPath)
	if !ok {
		return found{}, errNoRepo(repoPath)
	}
	for dir := start; ; dir = filepath.Dir(dir) {
		if fi, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			f, ok := checkRepo(sc, dir, fi, r.log)
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

// checkRepo validates the repository whose worktree is dir and whose .git entry is described by fi. A config
// file too big to check is logged for the client (see noted).
func checkRepo(sc *roots.Scope, dir string, fi os.FileInfo, log *slog.Logger) (found, bool) {
	gitDir, ok := gitDirOf(sc, dir, fi)
	if !ok || !sc.ContainsReal(gitDir) {
		return found{}, false
	}
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
		return found{}, false
	}
	commonDir, ok := commonDirOf(sc, gitDir)
	if !ok || !sc.ContainsReal(commonDir) {
		return found{}, false
	}
	if objects := filepath.Join(commonDir, "objects"); !sc.ContainsReal(objects) || !alternatesInside(sc, objects, 0) {
		return found{}, false
	}
	if !worktreeConfigOK(sc, dir, gitDir, commonDir, log) {
		return found{}, false
	}
	loc, ok := sc.Locate(dir)
	if !ok {
		return found{}, false
	}
	return found{loc: loc, worktree: dir, gitDir: gitDir, commonDir: commonDir}, true
}

// gitDirOf follows a `.git` directory, symlink or `gitdir:` file to the real git dir.
func gitDirOf(sc *roots.Scope, dir string, fi os.FileInfo) (string, bool) {
	p := filepath.Join(dir, ".git")
	if fi.Mode().IsRegular() {
		line, ok := firstLine(sc, p)
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
func commonDirOf(sc *roots.Scope, gitDir string) (string, bool) {
	p := filepath.Join(gitDir, "commondir")
	if _, err := os.Lstat(p); err != nil {
		return gitDir, true
	}
	line, ok := firstLine(sc, p)
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
	data, err := readSmall(sc, filepath.Join(objects, "info", "alternates"))
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
func worktreeConfigOK(sc *roots.Scope, dir, gitDir, commonDir string, log *slog.Logger) bool {
	for _, p := range []string{filepath.Join(commonDir, "config"), filepath.Join(gitDir, "config.worktree")} {
		data, err := readSmall(sc, p)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			if errors.Is(err, errTooBigMeta) {
				log.Warn("repository file refused", slog.String("audience", "client"), slog.String("repo", roots.URI(dir)),
					slog.String("file", ".git/"+filepath.Base(p)), slog.String("reason", "it is over the "+sizeText(maxMetaFile)+" limit grove reads"))
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
