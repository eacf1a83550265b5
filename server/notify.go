package server

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/grove-mcp/grove/internal/panics"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/watch"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notifier turns the watcher's batches into MCP notifications: updated to the
// subscribers of a file (the SDK routes each to the sessions subscribed to
// that URI, in both eras), and list_changed when files appear or go.
//
// Nothing it sends may tell of a change outside the roots: before a file's
// update goes out, the file is resolved again, as a read would resolve it
// now, and a file that has become a symlink out of the roots is silent. A
// subscription outside the client's roots after a roots change is dormant:
// kept, silent, and woken when the roots include it again.
type notifier struct {
	srv         *mcp.Server
	w           *watch.Watcher
	logger      *slog.Logger
	health      *watchHealth
	listChanged func(watch.Batch)     // emits notifications/resources/list_changed for a batch
	changed     func(dirs []string)   // caches under these directories are stale (.gitignore, listings)
	gitChanged  func(worktree string) // a repository's index, HEAD or refs changed
	// scope returns the roots in force now for a subscription made by a
	// legacy or a modern request.
	scope func(modern bool) *roots.Scope
	done  chan struct{}

	mu   sync.Mutex                                      // guards the fields below
	subs map[string]map[string]int                       // real path -> URI as the client sent it -> sessions, dormant or not
	sess map[*mcp.ServerSession]map[string]*subscription // session -> URI -> subscription, to drop on disconnect
}

func newNotifier(srv *mcp.Server, w *watch.Watcher, logger *slog.Logger) *notifier {
	return &notifier{
		srv: srv, w: w, logger: logger, health: &watchHealth{logger: logger},
		listChanged: func(watch.Batch) {}, changed: func([]string) {}, gitChanged: func(string) {},
		done: make(chan struct{}),
		subs: make(map[string]map[string]int),
		sess: make(map[*mcp.ServerSession]map[string]*subscription),
	}
}

// run delivers batches until the watcher closes.
func (n *notifier) run() {
	defer close(n.done)
	defer panics.Log(n.logger, "delivering change notifications")
	for b := range n.w.Batches() {
		n.deliverSafely(b)
	}
}

// deliverSafely delivers one batch; a panic costs that batch only.
func (n *notifier) deliverSafely(b watch.Batch) {
	defer panics.Log(n.logger, "delivering a batch of changes")
	n.deliver(b)
	n.health.check(n.w.Status())
}

func (n *notifier) deliver(b watch.Batch) {
	for _, wt := range b.Git {
		n.gitChanged(wt)
	}
	if dirs := staleDirs(b); len(dirs) > 0 {
		n.changed(dirs)
	}
	for _, uri := range n.affected(b) {
		n.notifyUpdated(uri)
	}
	if b.Rescan || n.anyVisible(b.Created) || n.anyVisible(b.Removed) {
		n.listChanged(b)
	}
}

func (n *notifier) notifyUpdated(uri string) {
	if err := n.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
		n.logger.Warn("resource updated notification failed", "uri", uri, "err", err)
	}
}

// anyVisible reports whether a path of a batch's list lies inside the
// session's roots as a read resolves it; a path reached through a symlink
// out of the roots (as a polled file under a directory swapped for one can
// be) tells nothing.
func (n *notifier) anyVisible(paths []string) bool {
	return slices.ContainsFunc(paths, func(p string) bool { return n.visible(p, false) })
}

// affected returns the subscribed URIs that a batch touches (the paths it
// names, anything below a removed directory, and everything after a rescan)
// and that are neither dormant nor resolved out of the roots now.
func (n *notifier) affected(b watch.Batch) []string {
	type candidate struct {
		abs    string
		modern bool
	}
	touched := make(map[string]bool)
	for _, list := range [][]string{b.Changed, b.Created, b.Removed} {
		for _, p := range list {
			touched[p] = true
		}
	}
	n.mu.Lock()
	cands := make(map[string][]candidate) // URI -> its live subscriptions
	for _, uris := range n.sess {
		for uri, sub := range uris {
			if !sub.dormant && (b.Rescan || touched[sub.abs] || underAny(sub.abs, b.Removed)) {
				cands[uri] = append(cands[uri], candidate{sub.abs, sub.modern})
			}
		}
	}
	n.mu.Unlock()
	seen := make(map[candidate]bool)
	var uris []string
	for uri, cs := range cands {
		if slices.ContainsFunc(cs, func(c candidate) bool {
			ok, done := seen[c]
			if !done {
				ok = n.visible(c.abs, c.modern)
				seen[c] = ok
			}
			return ok
		}) {
			uris = append(uris, uri)
		}
	}
	slices.Sort(uris)
	return uris
}

// underAny reports whether abs lies below one of dirs.
func underAny(abs string, dirs []string) bool {
	for _, dir := range dirs {
		if strings.HasPrefix(abs, dir+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// staleDirs returns the directories whose cached ignore rules a batch
// invalidates: those holding a .gitignore that changed, appeared or went.
func staleDirs(b watch.Batch) []string {
	var dirs []string
	for _, list := range [][]string{b.Changed, b.Created, b.Removed} {
		for _, p := range list {
			if filepath.Base(p) == ".gitignore" {
				dirs = append(dirs, filepath.Dir(p))
			}
		}
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}

func (n *notifier) close() error {
	err := n.w.Close()
	<-n.done
	return err
}

// status reports degraded watching, for list_roots.
func (n *notifier) status() string {
	st := n.w.Status()
	if !st.Degraded {
		return ""
	}
	return fmt.Sprintf("degraded (%s): %d directories watched; subscribed files are polled", st.Reason, st.Watches)
}
