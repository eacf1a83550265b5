package gittools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// open resolves repoPath through sc, finds the repository by walking up from it (never above its root), checks
// that everything the repository points at lies inside sc, and returns it locked; call the returned func to unlock.
// repoPath is an absolute path or file:// URI; "" means the only root when there is exactly one.
// A bare repository is refused: open is for the tools that read or write a worktree or an index.
func (r *Repos) open(ctx context.Context, sc *roots.Scope, repoPath string) (*repo.Repo, func(), error) {
	rp, unlock, err := r.openHistory(ctx, sc, repoPath)
	if err == nil && rp.Bare {
		unlock()
		return nil, nil, repo.ErrBare(repoPath)
	}
	return rp, unlock, err
}

// openHistory is open for the tools that read only objects and refs (log, show, blame, diff between revisions),
// which a bare repository (rp.Bare) serves as well.
func (r *Repos) openHistory(ctx context.Context, sc *roots.Scope, repoPath string) (*repo.Repo, func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if err := scope.RefuseTilde(repoPath); err != nil {
		return nil, nil, err
	}
	key, began := repo.DiscoverKeyOf(sc, repoPath), time.Now()
	d, known := r.repos.Rediscover(sc, key)
	if !known {
		var err error
		if d, err = r.discover(sc, repoPath); err != nil {
			return nil, nil, err
		}
	}
	rp, opened, err := r.cached(sc, d)
	if rf := (*gitfmt.RefusedFile)(nil); errors.As(err, &rf) {
		return nil, nil, err // the repository is there and allowed; the client may learn why it is refused
	}
	if err != nil {
		r.log.Debug("opening repository failed", "repo", repoPath, "err", err)
		return nil, nil, repo.ErrNoRepo(repoPath)
	}
	if !known {
		r.repos.Remember(rp, sc, key, d, began)
	}
	err = rp.LockContext(ctx)
	if opened {
		// Its warm-up waits for rp's lock: started once this call holds it (or gave up), it runs after the
		// call instead of taking the lock first and holding the call up while it loads the pack indexes.
		r.warmUp(rp)
	}
	if err != nil {
		return nil, nil, err
	}
	rp.Loc, rp.Scope = d.Loc, sc
	if err := rp.Refresh(); err != nil { // also fails when closed since cached returned it
		rp.Unlock()
		if rf := (*gitfmt.RefusedFile)(nil); errors.As(err, &rf) {
			return nil, nil, rp.Noted(err)
		}
		r.log.Debug("refreshing repository failed", "repo", repoPath, "err", err)
		return nil, nil, repo.ErrNoRepo(repoPath)
	}
	return rp, rp.Unlock, nil
}

// impliedRepo is the repo_path a tool works on: repoPath, or, when the client left it out and there are several
// roots, the URI of the root holding the first absolute path among the tool's path arguments (see
// scope.DefaultRoot). "" leaves the choice to open: the only root, or an error listing the roots.
func impliedRepo(sc *roots.Scope, repoPath string, paths ...string) string {
	if repoPath != "" || len(sc.Roots()) < 2 {
		return repoPath
	}
	if r, err := scope.DefaultRoot(sc, "repo_path", paths...); err == nil {
		return r.URI
	}
	return ""
}

// cached returns the repository for d, opening it on first use; opened reports that it did, and then the
// caller starts its warm-up (warmUp).
func (r *Repos) cached(sc *roots.Scope, d repo.Found) (rp *repo.Repo, opened bool, err error) {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return nil, false, repo.ErrClosed
	}
	return r.repos.Get(sc, d, repo.Options{Logger: r.log, MaxRead: r.maxRead()})
}

// warmUp loads rp's pack indexes and HEAD's commit in the background (repo.Repo.Warm), under rp's lock.
func (r *Repos) warmUp(rp *repo.Repo) {
	r.backgroundOpen("loading the pack index of "+rp.Worktree, func() { rp.Warm(r.stop) })
}

// Invalidate drops the derived caches of the repository whose worktree is (or contains) worktree.
// The watcher calls it when .git/index, HEAD or refs change; a stale cache is also caught by stat on the next call.
func (r *Repos) Invalidate(worktree string) {
	for _, rp := range r.repos.Related(worktree) {
		rp.Lock()
		rp.Changed()
		rp.Unlock()
	}
}

// discover finds the repository containing repoPath, walking up but never above the root that holds it, and
// refuses it unless the git dir, commondir, alternates and core.worktree all lie inside the roots (see CheckRepo).
func (r *Repos) discover(sc *roots.Scope, repoPath string) (repo.Found, error) {
	if repoPath == "" && len(sc.Roots()) > 1 {
		_, err := scope.DefaultRoot(sc, "repo_path")
		return repo.Found{}, err
	}
	start, top, ok := repo.StartDir(sc, repoPath)
	if !ok {
		return repo.Found{}, repo.ErrNoRepo(repoPath)
	}
	for dir := start; ; dir = filepath.Dir(dir) {
		if fi, err := lstatGit(sc, dir); err == nil {
			f, ok, err := repo.CheckRepo(sc, dir, fi, r.log)
			if oe := (*repo.OutsideRootsError)(nil); errors.As(err, &oe) {
				return repo.Found{}, err // the .git file inside the root says as much
			}
			if !ok {
				return repo.Found{}, repo.ErrNoRepo(repoPath)
			}
			return f, nil
		}
		if filepath.Base(dir) != ".git" && repo.IsBare(sc, dir) {
			if f, ok := repo.CheckBare(sc, dir, r.log); ok {
				return f, nil
			}
			return repo.Found{}, repo.ErrNoRepo(repoPath)
		}
		if dir == top || dir == filepath.Dir(dir) {
			return repo.Found{}, repo.ErrNoRepo(repoPath)
		}
	}
}

// lstatGit describes dir/.git through the handle of the root holding dir, without following it.
func lstatGit(sc *roots.Scope, dir string) (os.FileInfo, error) {
	loc, ok := sc.Locate(dir)
	if !ok {
		return nil, roots.ErrNotFound
	}
	return loc.Join(".git").Lstat()
}
