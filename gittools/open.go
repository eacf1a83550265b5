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
	d, known := r.rediscover(sc, key)
	if !known {
		var err error
		if d, err = r.discover(sc, repoPath); err != nil {
			return nil, nil, err
		}
	}
	rp, err := r.cached(d)
	if rf := (*gitfmt.RefusedFile)(nil); errors.As(err, &rf) {
		return nil, nil, err // the repository is there and allowed; the client may learn why it is refused
	}
	if err != nil {
		r.log.Debug("opening repository failed", "repo", repoPath, "err", err)
		return nil, nil, repo.ErrNoRepo(repoPath)
	}
	if !known {
		r.remember(rp, sc, key, d, began)
	}
	if err := rp.Mu.LockContext(ctx); err != nil {
		return nil, nil, err
	}
	rp.Loc, rp.Scope = d.Loc, sc
	if rp.Git == nil { // closed since cached returned it
		rp.Mu.Unlock()
		return nil, nil, repo.ErrNoRepo(repoPath)
	}
	if err := rp.Refresh(); err != nil {
		rp.Mu.Unlock()
		if rf := (*gitfmt.RefusedFile)(nil); errors.As(err, &rf) {
			return nil, nil, rp.Noted(err)
		}
		r.log.Debug("refreshing repository failed", "repo", repoPath, "err", err)
		return nil, nil, repo.ErrNoRepo(repoPath)
	}
	return rp, rp.Mu.Unlock, nil
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

// cached returns the repository for d, opening it on first use.
func (r *Repos) cached(d repo.Found) (*repo.Repo, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, errors.New("repositories closed")
	}
	if rp, ok := r.repos[d.GitDir]; ok && rp.Worktree == d.Worktree && rp.Bare == d.Bare {
		return rp, nil
	}
	rp := &repo.Repo{Worktree: d.Worktree, GitDir: d.GitDir, CommonDir: d.CommonDir, Loc: d.Loc, Bare: d.Bare,
		Logger: r.log, MaxRead: r.maxRead()}
	if err := rp.OpenStorage(); err != nil {
		return nil, rp.Noted(err)
	}
	r.repos[d.GitDir] = rp
	r.background("loading the pack index of "+d.Worktree, func() { rp.Warm(r.stop) })
	return rp, nil
}

// Invalidate drops the derived caches of the repository whose worktree is (or contains) worktree.
// The watcher calls it when .git/index, HEAD or refs change; a stale cache is also caught by stat on the next call.
func (r *Repos) Invalidate(worktree string) {
	r.mu.Lock()
	var hit []*repo.Repo
	for _, rp := range r.repos {
		if rp.Worktree == worktree || repo.Within(rp.Worktree, worktree) || repo.Within(worktree, rp.Worktree) {
			hit = append(hit, rp)
		}
	}
	r.mu.Unlock()
	for _, rp := range hit {
		rp.Mu.Lock()
		rp.Changed()
		rp.Mu.Unlock()
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
		if fi, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
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

// rediscover returns a remembered discovery that still holds.
func (r *Repos) rediscover(sc *roots.Scope, key repo.DiscoverKey) (repo.Found, bool) {
	r.mu.Lock()
	var d *repo.Discovered
	for _, rp := range r.repos {
		if d = rp.Discovered[key]; d != nil {
			break
		}
	}
	r.mu.Unlock()
	if d == nil {
		return repo.Found{}, false
	}
	if start, ok := repo.LexicalStart(sc, key.RepoPath); !ok || start != d.Start {
		return repo.Found{}, false
	}
	if loc, ok := sc.Locate(d.Start); !ok || loc.Root.File {
		return repo.Found{}, false
	}
	f := d.Found
	var ok bool
	if f.Loc, ok = sc.Locate(f.Worktree); !ok {
		return repo.Found{}, false
	}
	for _, c := range d.Checks {
		if !c.Holds() {
			return repo.Found{}, false
		}
	}
	return f, true
}

// remember stores the discovery f of key with rp, when its layout is plain and its files are older than the
// discovery (begun at began) by racyWindow.
func (r *Repos) remember(rp *repo.Repo, sc *roots.Scope, key repo.DiscoverKey, f repo.Found, began time.Time) {
	start, ok := repo.LexicalStart(sc, key.RepoPath)
	if !ok {
		return
	}
	checks, ok := repo.Vouch(start, f, began)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if rp.Discovered == nil || len(rp.Discovered) >= repo.MaxDiscovered {
		rp.Discovered = make(map[repo.DiscoverKey]*repo.Discovered)
	}
	rp.Discovered[key] = &repo.Discovered{Found: f, Start: start, Checks: checks}
}
