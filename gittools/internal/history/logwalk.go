package history

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/roots"
)

// Query is a validated git_log request.
type Query struct {
	Max          int
	from, hide   string // revisions; from "" = HEAD
	Path         string // repo-relative, "" = no path limit
	author, grep *regexp.Regexp
	since, until time.Time
	Progress     func(int)
	Cache        *Cache // per-repository filters and index; nil: read trees for every commit
}

// Query validates in.
func NewQuery(rp *repo.Repo, sc *roots.Scope, in LogArgs) (q Query, err error) {
	q.Max = in.MaxCount
	switch {
	case q.Max <= 0:
		q.Max = DefaultCount
	case q.Max > MaxCount:
		q.Max = MaxCount
	}
	q.from = in.Revision
	if a, b, ok := repo.SplitRange(in.Revision); ok {
		if a == "" {
			a = "HEAD"
		}
		q.hide, q.from = a, b
	}
	if q.Path, err = rp.RepoRel(sc, in.Path); err != nil {
		return q, err
	}
	if q.author, err = compileFilter("author", in.Author); err != nil {
		return q, err
	}
	if q.grep, err = compileFilter("grep", in.Grep); err != nil {
		return q, err
	}
	now := time.Now()
	if in.Since != "" {
		if q.since, err = parseDate(in.Since, now); err != nil {
			return q, err
		}
	}
	if in.Until != "" {
		if q.until, err = parseDate(in.Until, now); err != nil {
			return q, err
		}
	}
	return q, nil
}

func compileFilter(name, expr string) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, nil
	}
	// git matches --grep and --author line by line: ^ and $ anchor at lines.
	re, err := regexp.Compile("(?m)" + expr)
	if err != nil {
		return nil, fmt.Errorf("%s: invalid regular expression: %w", name, err)
	}
	return re, nil
}

// match applies the author, message and date filters.
func (q *Query) match(c *object.Commit) bool {
	if q.author != nil && !q.author.MatchString(c.Author.Name+" <"+c.Author.Email+">") {
		return false
	}
	if q.grep != nil && !q.grep.MatchString(c.Message) {
		return false
	}
	when := c.Committer.When
	if !q.since.IsZero() && when.Before(q.since) {
		return false
	}
	return q.until.IsZero() || !when.After(q.until)
}

// Log walks history for q.
func Log(rp *repo.Repo, ctx context.Context, q Query) (LogOut, error) {
	out := LogOut{Commits: []repo.CommitInfo{}}
	w, err := startWalk(rp, q.from, q.hide)
	if err != nil || w == nil {
		return out, err
	}
	tip := w.Queue[0].C.Hash
	if q.Cache != nil && !q.Cache.Graph(rp).HasFilters() {
		// Index this history for later queries (in the background, once). A commit-graph with changed-path
		// filters answers nearly as well without the build's cost.
		defer q.Cache.Extend(rp, tip)
	}
	var pw *pathWalk
	if q.Path != "" {
		pw = newPathWalk(rp, q.Cache, q.Path)
		if q.hide == "" {
			return pathLog(rp, ctx, q, pw, tip) // grove's own commit-graph reader: no go-git graph index
		}
	}
	w.Graph = rp.WalkGraph() // decode only the commits shown, and each of them once per cache lifetime
	for n := 0; ; n++ {
		if q.Progress != nil && n > 0 && n%progressEveryCommits == 0 {
			q.Progress(n)
		}
		if n == MaxScan && w.Queue.Len() > 0 {
			out.Scanned, out.Resume = n, w.Queue[0].C.Hash.String()
			return out, nil
		}
		c, err := w.Next(ctx)
		if err != nil || c == nil {
			return out, err
		}
		if !q.since.IsZero() && c.Committer.When.Before(q.since) {
			continue // like git: older than --since, and its parents are not walked
		}
		show, parents := true, c.ParentHashes
		if pw != nil {
			if show, parents, err = pw.simplify(w, c); err != nil {
				return out, err
			}
		}
		if show {
			if done, err := q.add(&out, rp, c); done || err != nil {
				return out, err
			}
		}
		if err := w.Follow(parents...); err != nil {
			return out, err
		}
	}
}

// add appends c to out if it passes the filters; done reports that out was already full (out.More is set).
func (q *Query) add(out *LogOut, rp *repo.Repo, c *object.Commit) (done bool, err error) {
	e, err := rp.CachedCommit(c.Hash) // c may be partial (from the commit-graph)
	if err != nil || !q.match(e.C) {
		return false, err
	}
	if len(out.Commits) == q.Max {
		out.More = true
		return true, nil
	}
	if cap(out.Commits) == 0 { // one allocation for the usual page of commits
		out.Commits = make([]repo.CommitInfo, 0, min(q.Max, 64))
	}
	out.Commits = append(out.Commits, rp.Summary(e))
	return false, nil
}

// MaxScan bounds one walk: a filter that matches nothing in a long history (a rarely touched path, an author
// who never committed) must not hold the repository for minutes; the answer says where to resume.
var MaxScan = 200_000 // a variable so tests can lower it

// progressEveryCommits is how many commits pass between progress notifications in a walk.
const progressEveryCommits = 2000

// startWalk queues from (default HEAD) and, for a range, hides hide. A nil walker means an unborn HEAD.
func startWalk(rp *repo.Repo, from, hide string) (*repo.Walker, error) {
	w := repo.NewWalker(rp)
	var h plumbing.Hash
	if from == "" {
		head, ok, err := rp.HeadHash()
		if err != nil || !ok {
			return nil, err
		}
		h = head
	} else {
		var err error
		if h, err = rp.Resolve(from); err != nil {
			return nil, err
		}
	}
	e, err := rp.CachedCommit(h)
	if err != nil {
		return nil, err
	}
	w.Push(e.C, false)
	if hide != "" {
		h, err := rp.Resolve(hide)
		if err != nil {
			return nil, err
		}
		if e, err = rp.CachedCommit(h); err != nil {
			return nil, err
		}
		w.Push(e.C, true)
	}
	return w, nil
}
