package gittools

// Opening repositories: the API the read and the write tools share.
//
//	rp, unlock, err := r.open(ctx, sc, in.RepoPath) // resolves, checks, caches and LOCKS the repo
//	if err != nil { return nil, Out{}, err }        // err reads the same for "not a repo" and "outside the roots"
//	defer unlock()
//	rp.git      // *git.Repository: storage opened with KeepDescriptors, worktree = osfs BoundOS on rp.worktree
//	rp.worktree // absolute real path of the worktree
//	rp.gitDir   // absolute real path of the git dir (.git, or the gitdir: target of a .git file)
//	rp.loc      // the worktree as a roots.Loc: rp.loc.Join(rel).OpenFile()/Lstat() for os.Root-confined file I/O
//	rp.repoRel(sc, p) // a path argument (relative to the worktree, absolute, or file:// URI) -> slash path relative
//	                  // to the worktree ("" = the worktree); escapes and .git get the roots' not-found error
//	rp.resolve(rev)   // validRevision + resolution (short hashes by .idx binary search) -> commit hash
//	rp.commit(rev), rp.headCommit() // *object.Commit (headCommit: nil on an unborn branch)
//	rp.headHash()     // HEAD's hash, cached while HEAD, its branch and packed-refs keep their stat data
//	rp.cachedCommit(h) // a decoded commit (and its summary), cached by hash across calls: don't modify it
//	rp.index()        // the parsed .git/index (cached until it changes); rp.status(ctx, nil) the full status
//	validRefName(name) // refname.go: git check-ref-format rules plus no leading '-' and not "HEAD"
//	r.Invalidate(worktree) // the watcher drops derived caches (a stale cache is also caught by stat on open)
//
// The lock is held for the whole operation because go-git is not safe for concurrent use (go-git/go-git#48).
// Write tools must call rp.changed() after writing the index, HEAD or refs (cheap; invalidates status caches).

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/grove-mcp/grove/ignore"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// errNoRepo is what every failure to find, or to be allowed to open, a repository reads like: missing, outside
// the roots, not a repository and unsafe (git dir or alternates outside the roots) cannot be told apart.
func errNoRepo(repoPath string) error {
	if repoPath == "" {
		repoPath = "."
	}
	return fmt.Errorf("no git repository: %w", roots.NotFound(repoPath))
}

// repo is one repository, cached in Repos by its real git dir.
type repo struct {
	discovered map[discoverKey]*discovered // guarded by Repos.mu, not mu: see rediscover

	logger  *slog.Logger // refusals of repository data go here for the client (see noted)
	maxRead int64        // Options.MaxReadBytes: the largest blob read into memory

	mu ctxLock // held for a whole operation: go-git is not thread-safe; guards all fields below

	git       *git.Repository // on store: storage opened with KeepDescriptors, objects read with size limits
	store     *objectStore
	worktree  string // absolute real path of the worktree
	gitDir    string // absolute real path of the git dir
	commonDir string // gitDir, or the commondir of a linked worktree
	loc       roots.Loc

	stamp    stamp   // stat data of index/HEAD/refs when the derived caches were filled
	derived  derived // caches rebuilt when stamp changes (the parsed index)
	warmed   bool
	hashes   map[string]wtHash // worktree blob hashes by path, kept across index changes
	matcher  *ignore.Matcher   // built on first status; see ignoreMatcher
	graph    *graphFile        // see commitGraph
	badGraph fileStamp         // the commit-graph file that could not be read, not tried again
	commits  commitCache       // decoded commits by hash (immutable: never stale)
	head     *headCache        // see headHash
}

// open resolves repoPath through sc, finds the repository by walking up from it (never above its root), checks
// that everything the repository points at lies inside sc, and returns it locked; call the returned func to unlock.
// repoPath is an absolute path or file:// URI; "" means the only root when there is exactly one.
func (r *Repos) open(ctx context.Context, sc *roots.Scope, repoPath string) (*repo, func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if err := scope.RefuseTilde(repoPath); err != nil {
		return nil, nil, err
	}
	key, began := discoverKeyOf(sc, repoPath), time.Now()
	d, known := r.rediscover(sc, key)
	if !known {
		var err error
		if d, err = r.discover(sc, repoPath); err != nil {
			return nil, nil, err
		}
	}
	rp, err := r.cached(d)
	if rf := (*refusedFile)(nil); errors.As(err, &rf) {
		return nil, nil, err // the repository is there and allowed; the client may learn why it is refused
	}
	if err != nil {
		r.log.Debug("opening repository failed", "repo", repoPath, "err", err)
		return nil, nil, errNoRepo(repoPath)
	}
	if !known {
		r.remember(rp, sc, key, d, began)
	}
	if err := rp.mu.LockContext(ctx); err != nil {
		return nil, nil, err
	}
	rp.loc = d.loc
	if rp.git == nil { // closed since cached returned it
		rp.mu.Unlock()
		return nil, nil, errNoRepo(repoPath)
	}
	if err := rp.refresh(); err != nil {
		rp.mu.Unlock()
		if rf := (*refusedFile)(nil); errors.As(err, &rf) {
			return nil, nil, rp.noted(err)
		}
		r.log.Debug("refreshing repository failed", "repo", repoPath, "err", err)
		return nil, nil, errNoRepo(repoPath)
	}
	return rp, rp.mu.Unlock, nil
}

// cached returns the repository for d, opening it on first use.
func (r *Repos) cached(d found) (*repo, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, errors.New("repositories closed")
	}
	if rp, ok := r.repos[d.gitDir]; ok && rp.worktree == d.worktree {
		return rp, nil
	}
	rp := &repo{worktree: d.worktree, gitDir: d.gitDir, commonDir: d.commonDir, loc: d.loc,
		logger: r.log, maxRead: r.maxRead()}
	if err := rp.openStorage(); err != nil {
		return nil, rp.noted(err)
	}
	r.repos[d.gitDir] = rp
	r.background("loading the pack index of "+d.worktree, func() { rp.warm(r.stop) })
	return rp, nil
}

// openStorage (re)opens the go-git repository on an objectStore. Caller holds rp.mu or owns rp exclusively.
func (rp *repo) openStorage() error {
	if rp.store != nil {
		rp.store.Close()
		rp.store, rp.git = nil, nil
	}
	var dot = osfs.New(rp.gitDir, osfs.WithBoundOS())
	if rp.commonDir != rp.gitDir {
		dot = dotgit.NewRepositoryFilesystem(dot, osfs.New(rp.commonDir, osfs.WithBoundOS()))
	}
	dot = boundedFS{Filesystem: dot, refused: func(err error) { rp.noted(err) }}
	objects := cache.NewObjectLRUDefault()
	st := filesystem.NewStorageWithOptions(dot, objects, filesystem.Options{KeepDescriptors: true, LargeObjectThreshold: largeObject})
	store, err := newObjectStore(st, objects, rp.commonDir)
	if err != nil {
		st.Close()
		return err
	}
	g, err := git.Open(store, osfs.New(rp.worktree, osfs.WithBoundOS()))
	if err != nil {
		store.Close()
		return err
	}
	rp.store, rp.git = store, g
	rp.commits, rp.head = commitCache{}, nil // its commits refer to the old storage
	return nil
}

// warm loads the pack indexes in the background so the first real request doesn't pay for it (GIT-PERFORMANCE §6.4).
func (rp *repo) warm(stop <-chan struct{}) {
	select {
	case <-stop:
		return
	default:
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.warmed || rp.git == nil {
		return
	}
	rp.warmed = true
	if h, err := rp.git.Head(); err == nil {
		_, _ = rp.git.CommitObject(h.Hash())
	}
}

// refresh compares the stat data of the files git changes with what the caches were built from, and drops what is
// stale. A changed pack directory reopens the storage, because go-git v5 reads the pack list only once.
func (rp *repo) refresh() error {
	now := rp.readStamp()
	if now == rp.stamp {
		return nil
	}
	if now.packs != rp.stamp.packs && rp.stamp != (stamp{}) {
		if err := rp.openStorage(); err != nil {
			return err
		}
	}
	rp.stamp = now
	rp.dropDerived()
	return nil
}

// changed drops every derived cache; write tools call it after writing the index, HEAD or refs.
func (rp *repo) changed() {
	rp.stamp = stamp{packs: rp.stamp.packs}
	rp.dropDerived()
}

func (rp *repo) dropDerived() {
	rp.derived = derived{}
	rp.head = nil
	if rp.matcher != nil {
		rp.matcher.Invalidate()
	}
}

// Invalidate drops the derived caches of the repository whose worktree is (or contains) worktree.
// The watcher calls it when .git/index, HEAD or refs change; a stale cache is also caught by stat on the next call.
func (r *Repos) Invalidate(worktree string) {
	r.mu.Lock()
	var hit []*repo
	for _, rp := range r.repos {
		if rp.worktree == worktree || within(rp.worktree, worktree) || within(worktree, rp.worktree) {
			hit = append(hit, rp)
		}
	}
	r.mu.Unlock()
	for _, rp := range hit {
		rp.mu.Lock()
		rp.changed()
		rp.mu.Unlock()
	}
}

// within reports whether p lies inside dir (lexically).
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && !startsDotDot(rel)
}

func startsDotDot(rel string) bool {
	return len(rel) >= 3 && rel[:2] == ".." && rel[2] == filepath.Separator
}

// stamp is the stat data of what git rewrites when the repository state changes.
type stamp struct {
	index, head, packedRefs, refs, packs fileStamp
}

type fileStamp struct {
	mtime int64
	size  int64
	ino   uint64
}

func (rp *repo) readStamp() stamp {
	return stamp{
		index:      statStamp(filepath.Join(rp.gitDir, "index")),
		head:       statStamp(filepath.Join(rp.gitDir, "HEAD")),
		packedRefs: statStamp(filepath.Join(rp.commonDir, "packed-refs")),
		refs:       statStamp(filepath.Join(rp.commonDir, "refs", "heads")),
		packs:      statStamp(filepath.Join(rp.commonDir, "objects", "pack")),
	}
}

func statStamp(p string) fileStamp {
	fi, err := os.Lstat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fileStamp{}
		}
		return fileStamp{mtime: -1}
	}
	return fileStamp{mtime: fi.ModTime().UnixNano(), size: fi.Size(), ino: inode(fi)}
}
