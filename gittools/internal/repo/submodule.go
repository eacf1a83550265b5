package repo

import (
	"path/filepath"
)

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
