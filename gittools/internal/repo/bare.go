package repo

import (
	"fmt"

	"github.com/grove-mcp/grove/roots"
)

// IsBare reports whether dir (inside sc) looks like a bare repository: HEAD, objects and refs and no worktree.
func IsBare(sc *roots.Scope, dir string) bool {
	loc, ok := sc.Locate(dir)
	if !ok || loc.Root.File {
		return false
	}
	head, err := loc.Join("HEAD").Lstat()
	if err != nil || !head.Mode().IsRegular() {
		return false
	}
	for _, d := range []string{"objects", "refs"} {
		if fi, err := loc.Join(d).Lstat(); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// ErrBare refuses a bare repository, with what to do instead.
func ErrBare(repoPath string) error {
	if repoPath == "" {
		repoPath = "the root"
	}
	return fmt.Errorf("%s is a bare repository (a git directory without a worktree); grove reads a repository "+
		"through its worktree: give a clone's or a linked worktree's directory as the root", repoPath)
}
