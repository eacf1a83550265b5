// Package repo owns an open repository: finding it inside the roots
// (discovery, with a stat-vouched cache of past discoveries, all through the
// roots' os.Root handles), the Set of open repositories, opening its storage
// on its directories pinned through those handles (go-git reads and writes
// them through rootfs) with size-capped object and metadata reads, the per-repository
// context lock, and what is computed from its state (parsed index, worktree
// hash memo, ignore matcher, HEAD cache, decoded-commit cache, commit graph,
// commit walker, revisions, tree path lookup, paths relative to the
// worktree). Engines (status, diff, log, blame, the write path) take a *Repo
// and never reach around it into .git.
//
//	start, top, ok := repo.StartDir(sc, repoPath) // walk up to top with CheckRepo
//	h, err := rp.Resolve("HEAD~2")
package repo

// Opening repositories: the API the read and the write tools share.
//
//	rp, unlock, err := r.open(ctx, sc, in.RepoPath) // resolves, checks, caches and LOCKS the repo
//	if err != nil { return nil, Out{}, err }        // err reads the same for "not a repo" and "outside the roots"
//	defer unlock()
//	rp.git      // *git.Repository: storage opened with KeepDescriptors over rootfs on the pinned git dir (dirs.go), worktree likewise
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
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/rootfs"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/grove-mcp/grove/ignore"
	"github.com/grove-mcp/grove/roots"
)

// ErrNoRepo is what every failure to find, or to be allowed to open, a repository reads like: missing, outside
// the roots, not a repository and unsafe (git dir or alternates outside the roots) cannot be told apart.
func ErrNoRepo(repoPath string) error {
	if repoPath == "" {
		repoPath = "."
	}
	return fmt.Errorf("no git repository: %w", roots.NotFound(repoPath))
}

// Repo is one repository, kept in a Set by its real git dir.
type Repo struct {
	Discovered map[DiscoverKey]*Discovered // guarded by Set.mu, not rp's lock: see Set.Rediscover

	Logger  *slog.Logger // refusals of repository data go here for the client (see noted)
	MaxRead int64        // Options.MaxReadBytes: the largest blob read into memory

	lock ctxLock // see Lock: held for a whole operation; guards all fields below

	Git       *git.Repository // on store: storage opened with KeepDescriptors, objects read with size limits
	Store     *objectStore
	Worktree  string // absolute real path of the worktree
	GitDir    string // absolute real path of the git dir
	CommonDir string // gitDir, or the commondir of a linked worktree
	Bare      bool   // a bare repository: Worktree is GitDir and is never read as a worktree (see CheckBare)
	Loc       roots.Loc
	Scope     *roots.Scope // the roots of the request that opened it last: submodules are found inside them

	closed   bool    // Close was called: Refresh no longer reopens
	pinned   bool    // OpenStorage has just pinned the directories: the next Refresh need not ask whether they moved
	dirs     dirs    // the git dir, common dir and worktree, opened through the root handles (dirs.go)
	stamp    stamp   // stat data of index/HEAD/refs when the derived caches were filled
	derived  derived // caches rebuilt when stamp changes (the parsed index)
	Warmed   bool
	Hashes   map[string]WtHash // worktree blob hashes by path, kept across index changes
	Matcher  *ignore.Matcher   // built on first status; see ignoreMatcher
	graph    *graphFile        // see commitGraph
	badGraph fileStamp         // the commit-graph file that could not be read, not tried again
	commits  CommitCache       // decoded commits by hash (immutable: never stale)
	head     *headCache        // see headHash
}

// OpenStorage (re)opens the go-git repository on an objectStore, over the repository's directories pinned
// through the root handles (dirs.go): go-git reads and writes them through rootfs. Caller holds rp.mu or owns rp
// exclusively.
func (rp *Repo) OpenStorage() error {
	if rp.Store != nil {
		rp.Store.Close()
		rp.Store, rp.Git = nil, nil
	}
	rp.dirs.close()
	if err := rp.openDirs(); err != nil {
		return err
	}
	var dot billy.Filesystem = rootfs.New(rp.dirs.git.root, rp.GitDir)
	if rp.CommonDir != rp.GitDir {
		dot = dotgit.NewRepositoryFilesystem(dot, rootfs.New(rp.dirs.common.root, rp.CommonDir))
	}
	dot = boundedFS{Filesystem: dot, refused: func(err error) { rp.Noted(err) }}
	objects := cache.NewObjectLRUDefault()
	st := filesystem.NewStorageWithOptions(dot, objects, filesystem.Options{KeepDescriptors: true, LargeObjectThreshold: largeObject})
	store, err := newObjectStore(st, objects, rp)
	if err != nil {
		st.Close()
		rp.dirs.close()
		return err
	}
	var wt billy.Filesystem
	if !rp.Bare {
		wt = rootfs.New(rp.dirs.worktree.root, rp.Worktree)
	}
	g, err := git.Open(store, wt)
	store.opening = nil
	if err != nil {
		store.Close()
		rp.dirs.close()
		return err
	}
	rp.Store, rp.Git, rp.pinned = store, g, true
	if store.sha256 {
		rp.MaxRead = min(rp.MaxRead, maxObjectBytes) // SHA-256 blobs are read whole or not at all (object256)
	}
	rp.commits, rp.head = CommitCache{}, nil // its commits refer to the old storage
	return nil
}

// Warm reads the pack indexes (grove's pack reader's, see packed.go) and HEAD's commit in the background so the first real request doesn't pay for it (GIT-PERFORMANCE §6.4).
func (rp *Repo) Warm(stop <-chan struct{}) {
	select {
	case <-stop:
		return
	default:
	}
	rp.Lock()
	defer rp.Unlock()
	if rp.Warmed || rp.Git == nil {
		return
	}
	rp.Warmed = true
	rp.WarmPacks()
	if h, err := rp.Git.Head(); err == nil {
		_, _ = rp.Git.CommitObject(h.Hash())
	}
}

// Refresh reopens the storage when a directory's path no longer names the directory pinned, then compares the
// stat data of the files git changes with what the caches were built from, and drops what is stale. A changed
// pack directory reopens the storage, because go-git v5 reads the pack list only once.
func (rp *Repo) Refresh() error {
	if rp.closed {
		return ErrClosed
	}
	pinned := rp.pinned
	rp.pinned = false
	if rp.Store == nil || !pinned && rp.moved() {
		// A path no longer names the directory pinned (or the last reopening failed): reopen through the
		// root handles, which refuse a symlink swapped in to lead outside.
		if err := rp.OpenStorage(); err != nil {
			return err
		}
		rp.stamp = stamp{}
	}
	now := rp.readStamp()
	if now == rp.stamp {
		return nil
	}
	if (now.packs != rp.stamp.packs || now.shallow != rp.stamp.shallow) && rp.stamp != (stamp{}) {
		if err := rp.OpenStorage(); err != nil {
			return err
		}
	}
	rp.stamp = now
	rp.dropDerived()
	return nil
}

// Changed drops every derived cache; write tools call it after writing the index, HEAD or refs.
func (rp *Repo) Changed() {
	rp.stamp = stamp{packs: rp.stamp.packs, shallow: rp.stamp.shallow}
	rp.dropDerived()
}

func (rp *Repo) dropDerived() {
	rp.derived = derived{}
	rp.head = nil
	if rp.Matcher != nil {
		rp.Matcher.Invalidate()
	}
}

// Within reports whether p lies inside dir (lexically).
func Within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && !startsDotDot(rel)
}

func startsDotDot(rel string) bool {
	return len(rel) >= 3 && rel[:2] == ".." && rel[2] == filepath.Separator
}

// stamp is the stat data of what git rewrites when the repository state changes.
type stamp struct {
	index, head, packedRefs, refs, packs, shallow, config, worktreeConfig fileStamp
}

type fileStamp struct {
	mtime int64
	size  int64
	ino   uint64
}

func (rp *Repo) readStamp() stamp {
	return stamp{
		index:      statStamp(rp.dirs.git.root, "index"),
		head:       statStamp(rp.dirs.git.root, "HEAD"),
		packedRefs: statStamp(rp.dirs.common.root, "packed-refs"),
		refs:       statStamp(rp.dirs.common.root, filepath.Join("refs", "heads")),
		packs:      statStamp(rp.dirs.common.root, filepath.Join("objects", "pack")),
		shallow:    statStamp(rp.dirs.common.root, "shallow"),
		config:     statStamp(rp.dirs.common.root, "config"),
		// config.worktree is read only with extensions.worktreeConfig, which is in config
		worktreeConfig: statStamp(rp.dirs.git.root, "config.worktree"),
	}
}

// statStamp is the stat data of name below the pinned directory dir (nil: none pinned, which never matches).
func statStamp(dir *os.Root, name string) fileStamp {
	if dir == nil {
		return fileStamp{mtime: -1}
	}
	fi, err := dir.Lstat(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fileStamp{}
		}
		return fileStamp{mtime: -1}
	}
	return fileStamp{mtime: fi.ModTime().UnixNano(), size: fi.Size(), ino: Inode(fi)}
}

// Noted logs err for the client when it is a refusal of repository data, and returns it. The record carries
// audience=client, which the server forwards as notifications/message; it names the repository by its file://
// URI (inside the roots) and the file relative to it, and leaves the offending data out.
func (rp *Repo) Noted(err error) error {
	var rf *gitfmt.RefusedFile
	if err != nil && rp.Logger != nil && errors.As(err, &rf) {
		rp.Logger.Warn("repository file refused", slog.String("audience", "client"),
			slog.String("repo", rp.Loc.URI()), slog.String("file", rf.File), slog.String("reason", rf.Reason))
	}
	return err
}
