package repo

import (
	"bufio"
	"bytes"
	"errors"
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
}

// StartDir resolves repoPath to a real directory inside sc and the root directory the walk must stop at.
func StartDir(sc *roots.Scope, repoPath string) (start, top string, ok bool) {
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

// CheckRepo validates the repository whose worktree is dir and whose .git entry is described by fi. Its
// metadata (.git file, commondir, alternates, config) is read through one confined handle, the os.Root of the
// root holding dir: every path it names must lie under that root, so a git dir, commondir or alternate in
// another root of sc is refused too. A config file too big to check is logged for the client (see noted).
func CheckRepo(sc *roots.Scope, dir string, fi os.FileInfo, log *slog.Logger) (Found, bool) {
	loc, ok := sc.Locate(dir)
	if !ok {
		return Found{}, false
	}
	m, ok := metaRootOf(loc)
	if !ok {
		return Found{}, false
	}
	gitDir, ok := gitDirOf(m, dir, fi)
	if !ok || !m.inside(gitDir) {
		return Found{}, false
	}
	if _, err := m.stat(filepath.Join(gitDir, "HEAD")); err != nil {
		return Found{}, false
	}
	commonDir, ok := commonDirOf(m, gitDir)
	if !ok || !m.inside(commonDir) {
		return Found{}, false
	}
	if objects := filepath.Join(commonDir, "objects"); !m.inside(objects) || !alternatesInside(m, objects, 0) {
		return Found{}, false
	}
	if !worktreeConfigOK(m, dir, gitDir, commonDir, log) {
		return Found{}, false
	}
	return Found{Loc: loc, Worktree: dir, GitDir: gitDir, CommonDir: commonDir}, true
}

// gitDirOf follows a `.git` directory, symlink or `gitdir:` file to the real git dir.
func gitDirOf(m metaRoot, dir string, fi os.FileInfo) (string, bool) {
	p := filepath.Join(dir, ".git")
	if fi.Mode().IsRegular() {
		line, ok := m.firstLine(p)
		target, found := strings.CutPrefix(line, "gitdir: ")
		if !ok || !found || target == "" {
			return "", false
		}
		p = target
	}
	real, ok := m.realPath(dir, p)
	if !ok {
		return "", false
	}
	if st, err := m.stat(real); err != nil || !st.IsDir() {
		return "", false
	}
	return real, true
}

// commonDirOf reads the commondir file of a linked worktree's git dir.
func commonDirOf(m metaRoot, gitDir string) (string, bool) {
	data, err := m.read(filepath.Join(gitDir, "commondir"))
	if os.IsNotExist(err) {
		return gitDir, true
	}
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "", false
	}
	return m.realPath(gitDir, line)
}

// maxAlternateDepth is git's own limit on chained alternates.
const maxAlternateDepth = 5

// alternatesInside reports whether every alternate object directory (recursively) lies under m's root.
func alternatesInside(m metaRoot, objects string, depth int) bool {
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
		real, ok := m.realPath(objects, line)
		if !ok || !alternatesInside(m, real, depth+1) {
			return false
		}
	}
	return true
}

// worktreeConfigOK accepts a core.worktree setting only when it names dir itself (inside m's root).
func worktreeConfigOK(m metaRoot, dir, gitDir, commonDir string, log *slog.Logger) bool {
	for _, p := range []string{filepath.Join(commonDir, "config"), filepath.Join(gitDir, "config.worktree")} {
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
		if real, ok := m.realPath(gitDir, wt); !ok || real != dir {
			return false
		}
	}
	return true
}
