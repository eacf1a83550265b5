package server

import (
	"cmp"
	"context"
	"slices"

	"github.com/grove-mcp/grove/fsres"
	"github.com/grove-mcp/grove/internal/panics"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The notifier's record of subscriptions: per session, resolved when made,
// dormant while outside the client's roots.

// subscription is one session's subscription to one URI.
type subscription struct {
	abs     string // the file, as resolved when the client subscribed
	modern  bool   // made by a modern request: scoped by the operator's roots alone
	dormant bool   // outside the session's roots since a roots change
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
	n.rescopeSession(ctx, sc, nil)
}

// rescopeSession is rescope for the subscriptions of only, when it is not
// nil (an HTTP session whose own roots changed).
func (n *notifier) rescopeSession(ctx context.Context, sc *roots.Scope, only *mcp.ServerSession) {
	var changes []wake
	n.mu.Lock()
	for ss, uris := range n.sess {
		if only != nil && ss != only {
			continue
		}
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
		if only != nil {
			if _, _, err := fsres.ResolveResource(sc, c.sub.abs); err == nil {
				resumed = append(resumed, c.uri)
			}
		} else if n.visible(c.sub.abs, false) {
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
