package repo

import (
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/grove-mcp/grove/roots"
)

// Set holds the repositories open in one server, each opened once and kept by its real git dir, with the
// discoveries remembered for it (discovercache.go). It is safe for concurrent use; what is done with a
// repository is guarded by that repository's own lock (Repo.Lock).
//
//	rp, opened, err := set.Get(sc, found, repo.Options{Logger: log, MaxRead: 10 << 20})
//	f, ok := set.Rediscover(sc, repo.DiscoverKeyOf(sc, repoPath))
type Set struct {
	mu     sync.Mutex       // guards the fields below and each Repo's Discovered
	repos  map[string]*Repo // by real git dir
	closed bool
}

// Options are what a Set gives each repository it opens.
type Options struct {
	Logger  *slog.Logger // refusals of repository data, for the client (see Repo.Noted)
	MaxRead int64        // the largest blob read into memory
}

// ErrClosed is the error of a Set, or a repository, used after Close.
var ErrClosed = errors.New("repositories closed")

// NewSet returns an empty Set.
func NewSet() *Set { return &Set{repos: make(map[string]*Repo)} }

// Get returns the repository d names, opening its storage through sc's root handles on first use (opened
// reports that). A repository kept for the same git dir with another worktree is replaced.
func (s *Set) Get(sc *roots.Scope, d Found, opts Options) (rp *Repo, opened bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false, ErrClosed
	}
	if rp, ok := s.repos[d.GitDir]; ok && rp.Worktree == d.Worktree && rp.Bare == d.Bare {
		return rp, false, nil
	}
	rp = &Repo{Worktree: d.Worktree, GitDir: d.GitDir, CommonDir: d.CommonDir, Loc: d.Loc, Bare: d.Bare, Scope: sc,
		Logger: opts.Logger, MaxRead: opts.MaxRead}
	if err := rp.OpenStorage(); err != nil {
		return nil, false, rp.Noted(err)
	}
	s.repos[d.GitDir] = rp
	return rp, true, nil
}

// Related returns the repositories whose worktree is worktree, contains it or lies in it.
func (s *Set) Related(worktree string) []*Repo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Repo
	for _, rp := range s.repos {
		if rp.Worktree == worktree || Within(rp.Worktree, worktree) || Within(worktree, rp.Worktree) {
			out = append(out, rp)
		}
	}
	return out
}

// All returns the repositories open now.
func (s *Set) All() []*Repo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Repo, 0, len(s.repos))
	for _, rp := range s.repos {
		out = append(out, rp)
	}
	return out
}

// Len returns how many repositories are open.
func (s *Set) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.repos)
}

// Close closes every repository, each under its lock, and makes later calls to Get fail.
func (s *Set) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	repos := s.repos
	s.repos = nil
	s.mu.Unlock()
	var first error
	for _, rp := range repos {
		rp.Lock()
		if err := rp.Close(); err != nil && first == nil {
			first = err
		}
		rp.Unlock()
	}
	return first
}

// Rediscover returns a remembered discovery of key that still holds in sc: every path it depends on,
// looked up through sc's root handles, is as it was.
func (s *Set) Rediscover(sc *roots.Scope, key DiscoverKey) (Found, bool) {
	s.mu.Lock()
	var d *Discovered
	for _, rp := range s.repos {
		if d = rp.Discovered[key]; d != nil {
			break
		}
	}
	s.mu.Unlock()
	if d == nil {
		return Found{}, false
	}
	if start, ok := LexicalStart(sc, key.RepoPath); !ok || start != d.Start {
		return Found{}, false
	}
	if loc, ok := sc.Locate(d.Start); !ok || loc.Root.File {
		return Found{}, false
	}
	f := d.Found
	var ok bool
	if f.Loc, ok = sc.Locate(f.Worktree); !ok {
		return Found{}, false
	}
	for _, c := range d.Checks {
		if !c.Holds(sc) {
			return Found{}, false
		}
	}
	return f, true
}

// Remember stores the discovery f of key with rp, when its layout is plain and its files are older than the
// discovery (begun at began) by RacyWindow (see Vouch).
func (s *Set) Remember(rp *Repo, sc *roots.Scope, key DiscoverKey, f Found, began time.Time) {
	start, ok := LexicalStart(sc, key.RepoPath)
	if !ok {
		return
	}
	checks, ok := Vouch(sc, start, f, began)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if rp.Discovered == nil || len(rp.Discovered) >= MaxDiscovered {
		rp.Discovered = make(map[DiscoverKey]*Discovered)
	}
	f.seen = nil // in Checks now
	rp.Discovered[key] = &Discovered{Found: f, Start: start, Checks: checks}
}
