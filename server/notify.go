package server

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/grove-mcp/grove/fsres"
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
	listChanged func()                // emits notifications/resources/list_changed
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

// subscription is one session's subscription to one URI.
type subscription struct {
	abs     string // the file, as resolved when the client subscribed
	modern  bool   // made by a modern request: scoped by the operator's roots alone
	dormant bool   // outside the session's roots since a roots change
}

func newNotifier(srv *mcp.Server, w *watch.Watcher, logger *slog.Logger) *notifier {
	return &notifier{
		srv: srv, w: w, logger: logger, health: &watchHealth{logger: logger},
		listChanged: func() {}, changed: func([]string) {}, gitChanged: func(string) {},
		done: make(chan struct{}),
		subs: make(map[string]map[string]int),
		sess: make(map[*mcp.ServerSession]map[string]*subscription),
	}
}

// subscribe records a subscription to uri, resolved in sc as a read resolves
// it; it answers what a read answers for a URI that is malformed, outside sc
// or reached through a symlink that leaves it. Subscribing to a file that
// does not exist yet is allowed: its creation is a change.
func (n *notifier) subscribe(ss *mcp.ServerSession, sc *roots.Scope, uri string, modern bool) error {
	loc, _, err := fsres.ResolveResource(sc, uri)
	if err != nil {
		return err
	}
	abs := loc.Abs()
	n.mu.Lock()
	first := n.sess[ss] == nil
	if first {
		n.sess[ss] = make(map[string]*subscription)
	}
	if old, ok := n.sess[ss][uri]; ok {
		n.release(old.abs, uri)
	}
	n.sess[ss][uri] = &subscription{abs: abs, modern: modern}
	if n.subs[abs] == nil {
		n.subs[abs] = make(map[string]int)
	}
	n.subs[abs][uri]++
	n.mu.Unlock()
	if first && ss != nil {
		// The SDK forgets a departed session's subscriptions without telling us.
		go func() {
			defer panics.Log(n.logger, "dropping a closed session's subscriptions")
			ss.Wait()
			n.dropSession(ss)
		}()
	}
	n.updatePolled()
	return nil
}

// unsubscribe drops the session's subscription to uri. A URI the session did
// not subscribe to is resolved in sc like a read, and gets a read's error;
// one it did is dropped even if it lies outside sc now (dormant).
func (n *notifier) unsubscribe(ss *mcp.ServerSession, sc *roots.Scope, uri string) error {
	n.mu.Lock()
	sub, ok := n.sess[ss][uri]
	if ok {
		delete(n.sess[ss], uri)
		n.release(sub.abs, uri)
	}
	n.mu.Unlock()
	if !ok {
		_, _, err := fsres.ResolveResource(sc, uri)
		return err
	}
	n.updatePolled()
	return nil
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
	for uri, sub := range n.sess[ss] {
		n.release(sub.abs, uri)
	}
	delete(n.sess, ss)
	n.mu.Unlock()
	n.updatePolled()
}

// wake is a subscription whose dormancy changed.
type wake struct {
	ss      *mcp.ServerSession
	uri     string
	sub     subscription
	dormant bool
}

// rescope applies a roots change to the legacy sessions' subscriptions:
// those outside sc go dormant, dormant ones inside it resume, and are told
// their file may have changed meanwhile. Both are logged for the client.
func (n *notifier) rescope(ctx context.Context, sc *roots.Scope) {
	var changes []wake
	n.mu.Lock()
	for ss, uris := range n.sess {
		for uri, sub := range uris {
			if sub.modern {
				continue
			}
			_, in := sc.Locate(sub.abs)
			if sub.dormant != in {
				continue
			}
			sub.dormant = !in
			changes = append(changes, wake{ss: ss, uri: uri, sub: *sub, dormant: !in})
		}
	}
	n.mu.Unlock()
	n.updatePolled()
	slices.SortFunc(changes, func(a, b wake) int { return cmp.Compare(a.uri, b.uri) })
	var resumed []string
	for _, c := range changes {
		ctx := withSession(ctx, c.ss)
		if c.dormant {
			n.logger.WarnContext(ctx, "subscription dormant: the file is outside the client's roots now; "+
				"no updates until they include it again", clientAudience, "uri", clientURI(c.uri, c.sub.abs))
			continue
		}
		n.logger.InfoContext(ctx, "subscription resumed: the file is inside the client's roots again", clientAudience,
			"uri", clientURI(c.uri, c.sub.abs))
		if n.visible(c.sub.abs, false) {
			resumed = append(resumed, c.uri)
		}
	}
	for _, uri := range slices.Compact(resumed) { // it may have changed while dormant
		n.notifyUpdated(uri)
	}
}

// clientURI names a subscription for the client: the URI it sent, or the
// file:// URI of the file when it sent a path.
func clientURI(uri, abs string) string {
	if roots.IsURI(uri) {
		return uri
	}
	return roots.URI(abs)
}

// visible reports whether a change to abs may be told: abs resolves inside
// the roots in force, as a read of it would now.
func (n *notifier) visible(abs string, modern bool) bool {
	if n.scope == nil {
		return false
	}
	_, _, err := fsres.ResolveResource(n.scope(modern), abs)
	return err == nil
}

// updatePolled tells the watcher which files must be tracked even if the
// kernel cannot watch their directories: those of subscriptions not dormant.
func (n *notifier) updatePolled() {
	n.mu.Lock()
	files := make([]string, 0, len(n.subs))
	for _, uris := range n.sess {
		for _, sub := range uris {
			if !sub.dormant {
				files = append(files, sub.abs)
			}
		}
	}
	n.mu.Unlock()
	slices.Sort(files)
	n.w.SetPolled(slices.Compact(files))
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
		n.listChanged()
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
