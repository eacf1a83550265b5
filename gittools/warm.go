package gittools

import (
	"github.com/grove-mcp/grove/internal/panics"
	"github.com/grove-mcp/grove/roots"
)

// Warm opens the repository holding dir (absolute, inside sc) and loads its pack index in the background, so
// that the first tool call doesn't pay for it (GIT-PERFORMANCE §6.4: 0.2-0.4 s on a mid-sized repository). The
// server calls it for each root when it learns its roots. It returns at once; dir not lying in a repository, or
// one that sc doesn't allow (the same checks as every tool call), is only logged. Calling it again for a
// repository already open or warm costs a discovery walk and nothing else.
func (r *Repos) Warm(sc *roots.Scope, dir string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || sc == nil || dir == "" {
		return
	}
	r.background("warming "+dir, func() { r.warmDir(sc, dir) })
}

// background runs f on its own goroutine, waited for by Close. A panic in f (go-git parsing a crafted
// repository's objects, say) is logged and ends f alone: on a goroutine of its own no handler's recovery
// reaches it, and the process would end with it.
func (r *Repos) background(what string, f func()) {
	r.wg.Go(func() {
		defer panics.Log(r.log, what)
		f()
	})
}

// warmDir opens dir's repository (and starts its warm-up when it opens it for the first time) and computes
// its status ahead of the first git_status (prescan).
func (r *Repos) warmDir(sc *roots.Scope, dir string) {
	select {
	case <-r.stop:
		return
	default:
	}
	d, err := r.discover(sc, dir)
	if err != nil {
		r.log.Debug("not warming: no repository", "dir", dir, "err", err)
		return
	}
	rp, opened, err := r.cached(sc, d)
	if err != nil {
		r.log.Debug("warming repository failed", "dir", dir, "err", err)
		return
	}
	if opened {
		r.warmUp(rp)
	}
	r.prescan(rp)
}
