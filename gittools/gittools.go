// Package gittools gives the model git history and state through MCP tools, on go-git plumbing, confined to
// the roots: a repository is opened only when its worktree, git dir, commondir and alternates all lie inside
// the roots in force for the request, every file of it is then read and written through the roots' os.Root
// handles (so a directory swapped for a symlink cannot lead outside), and every path and revision argument
// is validated before use.
//
// Read tools: git_status, git_log, git_diff, git_show, git_blame, git_branch, git_tag (listing). Write tools
// (git_add, git_commit, …) are registered only when not read-only (write_tools.go).
//
//	repos := gittools.New(gittools.Options{Scope: provider, Logger: logger})
//	defer repos.Close()
//	repos.Register(server)
//
// # Layout
//
// This package keeps tool registration, the MCP handlers (open the repository, call an engine, shape the
// answer), opening repositories ([Repos], open.go, warm.go; the repo.Set keeps them) and the public API that server and
// prompts use (api.go). The work is done in internal packages, each importing only the ones below it:
//
//   - internal/writecmd: the write commands (add, commit, branch, checkout, reset, init, tag), built from
//   - internal/gitwrite: the write plumbing (index file, trees, blobs, refs, reflog, identity, path safety).
//   - internal/status: git_status (branch line, upstream, entries), built from diff and scan.
//   - internal/diff: changes between trees, index and worktree, and patches (git_diff); git_show's views.
//   - internal/blame: git_blame (history walk, rename following), with /internal/linediff.
//   - internal/history: git_log (queries walked on the commit graph), with
//   - internal/pathindex: the in-memory changed-paths index of a repository's history, built in the background;
//   - internal/commitgraph: git's commit-graph files read by grove, with their changed-path Bloom filters.
//   - internal/refs: branches and tags.
//   - internal/scan: the worktree and the index compared with a tree (tracked, untracked, staged, conflicts).
//   - internal/repo: an open repository and the Set of them: discovery, storage with capped reads, lock,
//     caches, revisions, commit graph and walker, tree reading; every file read through the roots' handles.
//   - internal/rootfs: the billy.Filesystem over an os.Root that go-git's storage and worktree use.
//   - internal/gitfmt: git's on-disk formats (index, cache-tree, ref names, valid paths) and refusals.
//   - internal/patchtext: unified-diff text, path quoting, binary detection, over the module's one line
//     diff (/internal/linediff, shared with fsres's edit_file) and its hunk writer (/internal/unified).
//   - internal/gittest: the git CLI test fixture (tests only).
//
// # Performance
//
// Repositories stay open (KeepDescriptors) and are cached by git dir; the pack index is loaded in the background
// on first open, or before the first call when the server calls [Repos.Warm] for its roots. Status, log (on the
// commit-graph when there is one), blame (grove's own history walk, with internal/linediff for its line diffs), diffs and
// patches are grove's own code rather than go-git's porcelain, which is slow or wrong for them (see
// shared/GIT-PERFORMANCE.md). Per repository, decoded commits are cached by hash (repo/graph.go), HEAD by the
// stat data of the files it was read from (repo/revision.go), and a discovery by the stat data of every path it checked
// (repo/discovercache.go): a changed path means a full discovery, with all its checks, again. Status walks the
// worktree once, on two goroutines per core, stat-ing tracked files through the directory it lists; with a
// [ChangeFeed] (the server's file watcher, see [Repos.SetChanges]) later statuses re-examine only the paths
// that changed (scan.Warm), and scan fully again whenever the feed lost events or anything is in doubt.
package gittools

import (
	"log/slog"
	"sync"

	"github.com/grove-mcp/grove/gittools/internal/history"
	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/scope"
)

// Options configures [New]. The zero value of each field is a sensible default, except Scope, which is required.
type Options struct {
	Scope        scope.Provider // the roots in force for a request
	ReadOnly     bool           // register only the tools that don't change repositories
	Logger       *slog.Logger   // nil discards
	MaxReadBytes int64          // the largest blob read into memory (git_show, git_diff, prompts); 0 means 10 MiB
}

// defaultMaxReadBytes is MaxReadBytes when unset: the server's --max-file-size default.
const defaultMaxReadBytes = 10 << 20

// maxRead is the blob size limit in force.
func (r *Repos) maxRead() int64 {
	if r.opts.MaxReadBytes > 0 {
		return r.opts.MaxReadBytes
	}
	return defaultMaxReadBytes
}

// Repos holds the open repositories and serves the git_* tools.
type Repos struct {
	opts Options
	log  *slog.Logger
	stop chan struct{} // closed by Close: background work stops
	wg   sync.WaitGroup
	warm warmStates // git_status's state per repository, kept up to date from a ChangeFeed (status.go)

	history history.Cache // path-limited walks: Bloom filters and changed-paths indexes (set up by New)

	repos *repo.Set // the open repositories

	mu     sync.Mutex // guards the field below
	closed bool       // Close was called: no new background work
}

// New returns a Repos serving the roots opts.Scope gives. It panics if opts.Scope is nil.
func New(opts Options) *Repos {
	if opts.Scope == nil {
		panic("gittools.New: nil Scope")
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Repos{opts: opts, log: log, stop: make(chan struct{}), repos: repo.NewSet()}
	r.history.Background, r.history.Stop, r.history.Logger = r.backgroundOpen, r.stop, log
	return r
}

// Register adds every git_* tool to s; the write tools only when not read-only.
func (r *Repos) Register(s *mcp.Server) {
	r.registerReadTools(s)
	if !r.opts.ReadOnly {
		r.registerWriteTools(s)
	}
}

// Close stops background work and closes every repository. Calls after Close fail.
func (r *Repos) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	close(r.stop)
	r.mu.Unlock()
	r.wg.Wait()
	r.history.Close()
	r.warm.close()
	return r.repos.Close()
}

// readOnlyTool are the annotations of every read tool.
func readOnlyTool() *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
}

func ptr[T any](v T) *T { return &v }
