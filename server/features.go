package server

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/grove-mcp/grove/fsres"
	"github.com/grove-mcp/grove/gittools"
	"github.com/grove-mcp/grove/internal/gcburst"
	"github.com/grove-mcp/grove/internal/panics"
	"github.com/grove-mcp/grove/prompts"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/ui/review"
	"github.com/grove-mcp/grove/watch"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// installFeatureOptions sets the options that must exist before the SDK
// server does; the handlers reach the features through s once they are built.
func (s *Server) installFeatureOptions(opts *mcp.ServerOptions) {
	opts.SubscribeHandler = func(_ context.Context, req *mcp.SubscribeRequest) error {
		if req.Params == nil {
			return fsres.ResourceNotFound("")
		}
		sc, _ := s.Scope(req)
		if err := s.notify.subscribe(req.Session, sc, req.Params.URI, isModern(req)); err != nil {
			return err
		}
		s.watcher.wait() // answer once the file's directory is watched
		return nil
	}
	opts.UnsubscribeHandler = func(_ context.Context, req *mcp.UnsubscribeRequest) error {
		if req.Params == nil {
			return fsres.ResourceNotFound("")
		}
		sc, _ := s.Scope(req)
		return s.notify.unsubscribe(req.Session, sc, req.Params.URI)
	}
}

// addFeatures builds the feature packages and registers them.
func (s *Server) addFeatures() error {
	s.files = fsres.New(fsres.Options{Scope: s, ReadOnly: s.cfg.ReadOnly, MaxReadBytes: s.cfg.MaxReadBytes, MaxMediaBytes: s.cfg.MaxMediaBytes, Logger: s.logger.With("component", "fsres")})
	s.repos = gittools.New(gittools.Options{Scope: s, ReadOnly: s.cfg.ReadOnly, MaxReadBytes: s.cfg.MaxReadBytes, Logger: s.logger.With("component", "git")})
	s.closer = append(s.closer, s.repos.Close)
	s.prompts = prompts.New(prompts.Options{Scope: s, Git: s.repos, Files: s.files, Logger: s.logger.With("component", "prompts")})

	s.files.RegisterTemplate(s.mcp)
	s.prompts.Register(s.mcp)
	s.tools.start(func() { // not before the initialize answer: see lazyTools
		// The two halves register side by side: a first tools/call waits for both, and each is a few
		// milliseconds of schema inference on a machine that has a second core idle at start-up.
		var wg sync.WaitGroup
		var gitErr error
		wg.Go(func() {
			defer panics.Catch(&gitErr) // re-raised below, where lazyTools reports it
			s.repos.Register(s.mcp)
		})
		func() {
			defer wg.Wait() // joined even if this half panics
			s.addListRoots()
			s.files.RegisterTools(s.mcp)
		}()
		if gitErr != nil {
			panic(gitErr)
		}
	}, s.logger)
	s.closer = append(s.closer, s.tools.close)
	s.mcp.AddReceivingMiddleware(recoverPanics(s.logger), localhostURIs, s.listResources, eraErrors, emptyText, s.tools.wait, review.Middleware)
	s.mcp.AddReceivingMiddleware(s.clientLog.middleware) // outermost: every handler's context names its session
	s.mcp.AddSendingMiddleware(s.listSent.middleware, s.tools.quiet)
	if s.multi != nil {
		s.mcp.AddSendingMiddleware(s.ownNotifications)
	}
	return s.startWatching()
}

// listResources serves resources/list from fsres: the SDK's own list knows
// only static resources, and every file under the roots is one of ours.
func (s *Server) listResources(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.ListResourcesRequest); ok && method == "resources/list" {
			res, err := s.files.ListResources(ctx, r)
			if err != nil {
				return nil, err // not a typed nil in the interface
			}
			return res, nil
		}
		return next(ctx, method, req)
	}
}

// localhostURIs rewrites file://localhost/ (RFC 8089's explicit local host)
// to file:/// in the URI of resources/read: the SDK routes reads by the
// file:///{+path} template, and would answer "not found". (Subscriptions
// take either form and notify in the client's.)
func localhostURIs(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if p, ok := req.GetParams().(*mcp.ReadResourceParams); ok && p != nil {
			p.URI = withoutLocalhost(p.URI)
		}
		return next(ctx, method, req)
	}
}

func withoutLocalhost(uri string) string {
	const prefix = "file://localhost/"
	if len(uri) >= len(prefix) && strings.EqualFold(uri[:len(prefix)], prefix) {
		return "file:///" + uri[len(prefix):]
	}
	return uri
}

// complete dispatches completion/complete to the feature that owns the ref.
func (s *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	if req.Params != nil && req.Params.Ref != nil && req.Params.Ref.Type == "ref/prompt" {
		return s.prompts.Complete(ctx, req)
	}
	return s.files.Complete(ctx, req)
}

// startWatching watches the session's roots and turns changes into
// notifications. Roots changes re-scope the watches and subscriptions.
func (s *Server) startWatching() error {
	w, err := watch.New(watch.Options{
		Ignore:     func(abs string, isDir bool) bool { return s.files.Ignored(s.set.Scope(), abs, isDir) },
		Logger:     s.logger.With("component", "watch"),
		MaxWatches: s.cfg.MaxWatches,
	})
	if err != nil {
		return err
	}
	n := newNotifier(s.mcp, w, s.logger.With("component", "notify"))
	n.health = &watchHealth{logger: s.logger.With("component", "watch")}
	n.scope = func(modern bool) *roots.Scope {
		if modern {
			return s.set.Ceiling()
		}
		return s.set.Scope()
	}
	n.listChanged = func(b watch.Batch) {
		if s.anyInitialized() {
			s.multi.markBatch(b)
			s.files.ListChanged(s.mcp)
		}
	}
	n.changed = func(dirs []string) {
		for _, d := range dirs {
			s.files.Invalidate(d)
		}
	}
	n.gitChanged = func(worktree string) {
		s.repos.Invalidate(worktree)
		s.files.Invalidate(worktree) // the index decides which files are tracked, hence never ignored
	}
	s.notify = n
	s.repos.SetChanges(statusFeed{w}) // warm git_status
	// grep's trigram indexes
	s.files.SetChanges(func(dir string) fsres.DirChanges { return feedChanges{w.Subscribe(dir)} })
	s.watchStatus = n.status
	s.watcher = newRootsWatcher(w, n.health, s.logger.With("component", "watch"))
	s.closer = append(s.closer, n.close, s.watcher.close) // the worker stops first
	s.closer = append(s.closer, s.files.Close)            // index builds stop before the watcher they sync with
	go n.run()
	s.client.onChange = s.rootsChanged
	// Start-up (the tools registered in the background) and a first call
	// right after initialize allocate in a burst from a 4 MB heap: the
	// collector's target stays raised until the background work starts,
	// after that call's answer (see afterFirst).
	relaxed := gcburst.Relax()
	s.closer = append(s.closer, func() error { relaxed(); return nil })
	s.background.start = func() {
		relaxed()
		s.rootsChanged(context.Background(), nil, s.set.Scope())
	}
	s.background.log = s.logger
	s.mcp.AddReceivingMiddleware(s.background.middleware)
	s.closer = append(s.closer, s.background.close) // closers run last first: no start once closing
	return nil
}

// rootsChanged re-scopes subscriptions to sc at once, and the watches and
// repositories in the background: setting up a large tree's watches or a
// repository's pack index must not delay start-up or the request that
// changed the roots. When the roots differ from old, so may the resources a
// client lists: it is told with list_changed.
func (s *Server) rootsChanged(ctx context.Context, old, sc *roots.Scope) {
	s.notify.rescope(ctx, sc)
	s.watcher.set(sc)
	for _, r := range sc.Roots() {
		s.repos.Warm(sc, r.Path) // load pack indexes now, not at the first tool call
	}
	if old != nil && !slices.Equal(old.Roots(), sc.Roots()) {
		s.resourcesChanged()
	}
}

// anyInitialized reports whether some session has been initialized. The SDK
// would send list_changed to a session before its handshake ends, which the
// protocol forbids; and a client lists resources after it anyway.
func (s *Server) anyInitialized() bool {
	for ss := range s.mcp.Sessions() {
		if ss.InitializeParams() != nil {
			return true
		}
	}
	return false
}
