package gittools

import (
	"context"
	"sync"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/gittools/internal/scan"
	"github.com/grove-mcp/grove/gittools/internal/status"

	"github.com/grove-mcp/grove/internal/gcburst"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (r *Repos) addStatus(s *mcp.Server) {
	scope.AddTool(s, &mcp.Tool{
		Name:  "git_status",
		Title: "Git status",
		Description: "Show the working tree status like `git status --short --branch`: staged (X) and unstaged (Y) " +
			"changes, unmerged paths and untracked files (untracked directories collapsed to dir/).",
		Annotations: readOnlyTool(),
	}, r.opts.Scope, r.status)
}

func (r *Repos) status(ctx context.Context, req *mcp.CallToolRequest, sc *roots.Scope, in status.StatusArgs) (*mcp.CallToolResult, status.StatusOut, error) {
	defer gcburst.Relax()()
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, status.StatusOut{}, err
	}
	defer unlock()
	out, err := status.Of(rp, ctx, r.warm.of(rp), progressFunc(ctx, req, "scanning worktree"))
	if err != nil {
		return nil, status.StatusOut{}, err
	}
	return textResult(status.Format(out) + inProgressNote(rp)), out, nil
}

// prescan computes rp's status in the background when the server opens the repository at start-up (see
// warmDir), so that the first git_status finds the worktree state kept and re-examines only what changed
// since (through the change feed), instead of paying the full scan: index parse, ignore rules, a readdir of
// every directory and an lstat of every tracked file. Without a feed there is no state to keep and it does
// nothing. A scan made while the watcher still walks the roots cannot be vouched for (scan.Warm.Valid), so it
// waits for the walk first, and gives up as soon as a request asks for the repository: that request scans.
func (r *Repos) prescan(rp *repo.Repo) {
	w, feed := r.warm.withFeed(rp)
	if w == nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r.wg.Go(func() { // Close ends the scan: it waits for this goroutine, which runs inside a background one
		select {
		case <-r.stop:
			cancel()
		case <-ctx.Done():
		}
	})
	began := time.Now()
	asked := func() bool { return rp.SinceAsked() < time.Since(began) }
	for attempt := 0; attempt < prescanAttempts && !asked(); attempt++ {
		for !feed.Cover([]string{rp.Worktree}) { // false while the watcher walks the roots
			if asked() || time.Since(began) > prescanWait {
				return
			}
			select {
			case <-r.stop:
				return
			case <-time.After(prescanPoll):
			}
		}
		valid, err := r.prescanOnce(ctx, rp, w)
		if err != nil {
			r.log.Debug("status pre-scan failed", "worktree", rp.Worktree, "err", err)
		}
		if valid || err != nil {
			return
		}
	}
}

const (
	prescanAttempts = 2
	// prescanWait bounds how long a pre-scan waits for the watcher to walk the roots.
	prescanWait = 10 * time.Second
	// prescanPoll is how often it looks: a 50,000-file tree takes the watcher some 100 ms.
	prescanPoll = 20 * time.Millisecond
)

// prescanOnce scans rp's worktree into w under rp's lock and reports whether w can vouch for the result.
func (r *Repos) prescanOnce(ctx context.Context, rp *repo.Repo, w *scan.Warm) (bool, error) {
	rp.Lock()
	defer rp.Unlock()
	select {
	case <-r.stop:
		return true, nil
	default:
	}
	if rp.Git == nil {
		return true, nil
	}
	if err := rp.Refresh(); err != nil {
		return false, err
	}
	idx, err := rp.Index()
	if err != nil {
		return false, err
	}
	if _, err := w.Staged(rp, ctx, idx); err != nil {
		return false, err
	}
	if _, err := w.Worktree(rp, ctx, idx, nil); err != nil {
		return false, err
	}
	return w.Valid(), nil
}

// A ChangeFeed tells git_status what changed in a worktree since it last looked, so that a warm status
// re-examines only that (the server adapts its file watcher). Without one, every status scans the
// whole worktree.
type ChangeFeed interface {
	// Watch returns the changes of the worktree (an absolute, real directory).
	Watch(worktree string) WorktreeChanges
}

// WorktreeChanges is one worktree's feed.
type WorktreeChanges interface {
	// Sync returns the absolute paths below the worktree that had an event since the previous Sync,
	// every change made before the call included (the feed waits for its watcher to catch up). lost
	// reports that events may have been missed since then.
	Sync(ctx context.Context) (paths []string, lost bool, err error)
	// Cover makes sure the absolute directories are watched and reports whether all of them were already.
	Cover(dirs []string) bool
	Close()
}

// SetChanges gives git_status its change feed; the server calls it once its watcher runs. nil turns
// warm status off.
func (r *Repos) SetChanges(f ChangeFeed) {
	r.warm.set(f)
}

// maxWarmRepos bounds the repositories whose worktree state is kept; past it, the states start over.
const maxWarmRepos = 64

// warmStates holds each repository's warm status state with its feed.
type warmStates struct {
	mu     sync.Mutex // guards the fields below
	feed   ChangeFeed
	states map[*repo.Repo]*warmState
}

type warmState struct {
	feed WorktreeChanges
	warm *scan.Warm
}

func (ws *warmStates) set(f ChangeFeed) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.closeAll()
	ws.feed = f
}

// of returns rp's state, nil when there is no feed. The caller holds rp's lock while it uses it.
func (ws *warmStates) of(rp *repo.Repo) *scan.Warm {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.feed == nil {
		return nil
	}
	if st, ok := ws.states[rp]; ok {
		return st.warm
	}
	if len(ws.states) >= maxWarmRepos {
		ws.closeAll()
	}
	if ws.states == nil {
		ws.states = make(map[*repo.Repo]*warmState)
	}
	f := ws.feed.Watch(rp.Worktree)
	if f == nil {
		return nil
	}
	st := &warmState{feed: f, warm: scan.NewWarm(f)}
	ws.states[rp] = st
	return st.warm
}

// withFeed is of with the feed it keeps rp's state from.
func (ws *warmStates) withFeed(rp *repo.Repo) (*scan.Warm, WorktreeChanges) {
	w := ws.of(rp)
	if w == nil {
		return nil, nil
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	st, ok := ws.states[rp]
	if !ok || st.warm != w {
		return nil, nil
	}
	return w, st.feed
}

// close ends every feed; warm status stays off after it.
func (ws *warmStates) close() {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.closeAll()
	ws.feed = nil
}

// closeAll ends every feed and forgets the states. ws.mu must be held. A state still in use by a status
// keeps working: its feed reports lost from then on.
func (ws *warmStates) closeAll() {
	for _, st := range ws.states {
		st.feed.Close()
	}
	ws.states = nil
}
