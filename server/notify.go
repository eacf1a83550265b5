package server

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/watch"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notifier turns the watcher's batches into MCP notifications: updated to the
// subscribers of a file (the SDK routes each to the sessions subscribed to
// that URI, in both eras), and list_changed when files appear or go.
type notifier struct {
	srv         *mcp.Server
	w           *watch.Watcher
	logger      *slog.Logger
	listChanged func()                // emits notifications/resources/list_changed
	changed     func(dirs []string)   // caches under these directories are stale (.gitignore, listings)
	gitChanged  func(worktree string) // a repository's index, HEAD or refs changed
	done        chan struct{}

	mu   sync.Mutex                               // guards the fields below
	subs map[string]map[string]int                // real path -> URI as the client sent it -> subscriptions
	sess map[*mcp.ServerSession]map[string]string // session -> URI -> real path, to drop on disconnect
}

func newNotifier(srv *mcp.Server, w *watch.Watcher, logger *slog.Logger) *notifier {
	return &notifier{
		srv: srv, w: w, logger: logger,
		listChanged: func() {}, changed: func([]string) {}, gitChanged: func(string) {},
		done: make(chan struct{}),
		subs: make(map[string]map[string]int),
		sess: make(map[*mcp.ServerSession]map[string]string),
	}
}

// subscribe records a subscription to uri, which must lie inside sc.
// Subscribing to a file that does not exist yet is allowed: its creation
// is a change.
func (n *notifier) subscribe(ss *mcp.ServerSession, sc *roots.Scope, uri string) error {
	loc, err := sc.Resolve(uri)
	if err != nil {
		return mcp.ResourceNotFoundError(uri)
	}
	abs := loc.Abs()
	n.mu.Lock()
	if n.subs[abs] == nil {
		n.subs[abs] = make(map[string]int)
	}
	n.subs[abs][uri]++
	first := n.sess[ss] == nil
	if first {
		n.sess[ss] = make(map[string]string)
	}
	n.sess[ss][uri] = abs
	n.mu.Unlock()
	if first && ss != nil {
		// The SDK forgets a departed session's subscriptions without telling us.
		go func() {
			ss.Wait()
			n.dropSession(ss)
		}()
	}
	n.updatePolled()
	return nil
}

func (n *notifier) unsubscribe(ss *mcp.ServerSession, uri string) {
	n.mu.Lock()
	abs, ok := n.sess[ss][uri]
	if ok {
		delete(n.sess[ss], uri)
		n.release(abs, uri)
	}
	n.mu.Unlock()
	n.updatePolled()
}

// release drops one subscription of uri at abs; n.mu must be held.
func (n *notifier) release(abs, uri string) {
	if n.subs[abs][uri]--; n.subs[abs][uri] <= 0 {
		delete(n.subs[abs], uri)
	}
	if len(n.subs[abs]) == 0 {
		delete(n.subs, abs)
	}
}

func (n *notifier) dropSession(ss *mcp.ServerSession) {
	n.mu.Lock()
	for uri, abs := range n.sess[ss] {
		n.release(abs, uri)
	}
	delete(n.sess, ss)
	n.mu.Unlock()
	n.updatePolled()
}

// rescope drops the subscriptions that lie outside sc, after a roots change.
func (n *notifier) rescope(sc *roots.Scope) {
	n.mu.Lock()
	for ss, uris := range n.sess {
		for uri, abs := range uris {
			if _, ok := sc.Locate(abs); !ok {
				delete(uris, uri)
				n.release(abs, uri)
				n.logger.Debug("subscription dropped: outside the new roots", "uri", uri)
			}
		}
		if len(uris) == 0 {
			delete(n.sess, ss)
		}
	}
	n.mu.Unlock()
	n.updatePolled()
}

// updatePolled tells the watcher which files must be tracked even if the
// kernel cannot watch their directories.
func (n *notifier) updatePolled() {
	n.mu.Lock()
	files := make([]string, 0, len(n.subs))
	for abs := range n.subs {
		files = append(files, abs)
	}
	n.mu.Unlock()
	slices.Sort(files)
	n.w.SetPolled(files)
}

// run delivers batches until the watcher closes.
func (n *notifier) run() {
	defer close(n.done)
	for b := range n.w.Batches() {
		n.deliver(b)
	}
}

func (n *notifier) deliver(b watch.Batch) {
	for _, wt := range b.Git {
		n.gitChanged(wt)
	}
	if dirs := staleDirs(b); len(dirs) > 0 {
		n.changed(dirs)
	}
	for _, uri := range n.affected(b) {
		if err := n.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
			n.logger.Warn("resource updated notification failed", "uri", uri, "err", err)
		}
	}
	if b.Rescan || len(b.Created) > 0 || len(b.Removed) > 0 {
		n.listChanged()
	}
}

// affected returns the subscribed URIs that a batch touches: the paths it
// names, anything below a removed directory, and everything after a rescan.
func (n *notifier) affected(b watch.Batch) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var uris []string
	add := func(abs string) {
		for uri := range n.subs[abs] {
			uris = append(uris, uri)
		}
	}
	if b.Rescan {
		for abs := range n.subs {
			add(abs)
		}
	}
	for _, list := range [][]string{b.Changed, b.Created, b.Removed} {
		for _, p := range list {
			add(p)
		}
	}
	for _, dir := range b.Removed {
		prefix := dir + string(filepath.Separator)
		for abs := range n.subs {
			if strings.HasPrefix(abs, prefix) {
				add(abs)
			}
		}
	}
	slices.Sort(uris)
	return slices.Compact(uris)
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
