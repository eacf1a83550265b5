package repo

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/roots"
)

// IsBare reports whether dir (inside sc) looks like a bare repository, as git tells a git directory: a HEAD file
// holding a symbolic ref under refs/ or an object name, and objects and refs directories.
func IsBare(sc *roots.Scope, dir string) bool {
	loc, ok := sc.Locate(dir)
	if !ok || loc.Root.File {
		return false
	}
	if !validHead(loc.Join("HEAD")) {
		return false
	}
	for _, d := range []string{"objects", "refs"} {
		if fi, err := loc.Join(d).Lstat(); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// maxHeadFile bounds what is read of a HEAD file: a symbolic ref or an object name and a newline.
const maxHeadFile = 512

// validHead reports whether the regular file at loc reads as a HEAD: "ref: refs/…" or 40 or 64 hex digits.
func validHead(loc roots.Loc) bool {
	f, _, err := loc.OpenFile()
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, maxHeadFile)
	n, _ := io.ReadFull(f, buf)
	head := strings.TrimRight(string(buf[:n]), "\n")
	if strings.HasPrefix(head, "ref: refs/") {
		return true
	}
	return (len(head) == 40 || len(head) == 64) && IsHex(head)
}

// CheckBare is CheckRepo for a bare repository at dir (see IsBare): its objects and alternates must lie inside the
// roots, and it must not name a worktree (core.worktree) other than itself. The Found it returns has dir as its
// git dir and, lexically, as its Worktree: paths are taken relative to it, and nothing reads a worktree of a bare
// repository (see Found.Bare).
func CheckBare(sc *roots.Scope, dir string, log *slog.Logger) (Found, bool) {
	loc, ok := sc.Locate(dir)
	if !ok {
		return Found{}, false
	}
	ms := metaRoots{sc: sc}
	m, ok := ms.of(dir)
	if !ok {
		return Found{}, false
	}
	if objects := filepath.Join(dir, "objects"); !m.inside(objects) || !alternatesInside(ms, m, objects, 0) {
		return Found{}, false
	}
	if _, err := m.read(filepath.Join(dir, "commondir")); err == nil {
		return Found{}, false // a linked worktree's git dir, not a repository of its own
	}
	if !worktreeConfigOK(ms, dir, dir, dir, log) {
		return Found{}, false
	}
	return Found{Loc: loc, Worktree: dir, GitDir: dir, CommonDir: dir, Bare: true}, true
}

// ErrNoWorktree is what a tool that reads or writes the worktree or the index says about a bare repository.
var ErrNoWorktree = errors.New("it is a bare repository: there is no worktree (and no index)")

// ErrBare refuses a bare repository for a tool that needs a worktree, with what does work.
func ErrBare(repoPath string) error {
	if repoPath == "" {
		repoPath = "the root"
	}
	return fmt.Errorf("%s: %w; git_log, git_show, git_blame and git_diff between two revisions (target=A..B) read it, "+
		"or give a clone's or a linked worktree's directory as the root", repoPath, ErrNoWorktree)
}

// OpenSubmodule opens the repository checked out at rel, the path of a gitlink (submodule) entry of rp's
// index, found and checked as discovery checks any repository (CheckRepo: its git dir, usually in rp's
// .git/modules, must lie inside the roots of rp.Scope). It returns nil, nil when rel holds no repository
// (a submodule that is not checked out). The caller closes what it returns.
func (rp *Repo) OpenSubmodule(rel string) (*Repo, error) {
	dir := filepath.Join(rp.Worktree, filepath.FromSlash(rel))
	fi, err := rp.Loc.Join(rel + "/.git").Lstat()
	if err != nil {
		return nil, nil
	}
	sc := rp.Scope
	if sc == nil {
		return nil, nil
	}
	found, ok, err := CheckRepo(sc, dir, fi, rp.Logger)
	if err != nil || !ok {
		return nil, err
	}
	sub := &Repo{Worktree: found.Worktree, GitDir: found.GitDir, CommonDir: found.CommonDir, Loc: found.Loc,
		Scope: sc, Logger: rp.Logger, MaxRead: rp.MaxRead}
	if err := sub.OpenStorage(); err != nil {
		return nil, err
	}
	return sub, nil
}

// Close closes the repository's storage and its directories.
func (rp *Repo) Close() error {
	rp.closed = true
	defer rp.dirs.close()
	if rp.Store == nil {
		return nil
	}
	err := rp.Store.Close()
	rp.Store, rp.Git = nil, nil
	return err
}
