package gittools

import (
	"context"
	"errors"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/grove-mcp/grove/gittools/internal/refs"

	"github.com/grove-mcp/grove/gittools/internal/history"

	"github.com/grove-mcp/grove/gittools/internal/diff"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// The methods below serve the prompts package (through an interface; prompts does not import gittools).
// repoPath "" means the single root's repository.

// Diff returns the patch of unstaged changes, of staged ones, or of base (a revision, against the worktree,
// or a range a..b), capped like git_diff.
func (r *Repos) Diff(ctx context.Context, sc *roots.Scope, repoPath string, staged bool, base string) (string, error) {
	rp, unlock, err := r.open(ctx, sc, repoPath)
	if err != nil {
		return "", err
	}
	defer unlock()
	changes, _, err := diff.Changes(rp, ctx, staged, base, "")
	if err != nil {
		return "", err
	}
	_, patch, err := diff.Render(rp, ctx, changes, diff.DefaultContext, false)
	return patch, err
}

// Show returns revision's header and message (as `git show` prints them) and its patch against its first parent.
func (r *Repos) Show(ctx context.Context, sc *roots.Scope, repoPath, revision string) (message, patch string, err error) {
	if revision == "" {
		revision = "HEAD"
	}
	rp, unlock, err := r.open(ctx, sc, repoPath)
	if err != nil {
		return "", "", err
	}
	defer unlock()
	c, err := rp.Commit(revision)
	if err != nil {
		return "", "", err
	}
	out, _, err := diff.ShowCommit(rp, ctx, c)
	if err != nil {
		return "", "", err
	}
	return diff.CommitHeaderIn(rp, c), out.Patch, nil
}

// FileLog returns the last max commits that changed the file at path (absolute or a file:// URI inside the
// roots), each with its header and its patch to that file, capped at maxPatchBytes.
func (r *Repos) FileLog(ctx context.Context, sc *roots.Scope, path string, maxCount int) (string, error) {
	if path == "" {
		return "", errors.New("a file path is required")
	}
	rp, unlock, err := r.openFor(ctx, sc, path)
	if err != nil {
		return "", err
	}
	defer unlock()
	rel, err := rp.RepoRel(sc, path)
	if err != nil {
		return "", err
	}
	if rel == "" {
		return "", errors.New("path must name a file inside the repository")
	}
	q := history.Query{Max: min(maxCount, history.MaxCount), Path: rel, Cache: &r.history}
	if maxCount <= 0 {
		q.Max = history.DefaultCount
	}
	out, err := history.Log(rp, ctx, q)
	if err != nil {
		return "", err
	}
	return fileLogText(rp, ctx, out, rel)
}

func fileLogText(rp *repo.Repo, ctx context.Context, out history.LogOut, rel string) (string, error) {
	var b strings.Builder
	for i, ci := range out.Commits {
		if b.Len() > diff.MaxPatchBytes {
			b.WriteString("… " + strconv.Itoa(len(out.Commits)-i) + " older commits not shown (output cap)\n")
			break
		}
		c, err := rp.Git.CommitObject(plumbing.NewHash(ci.Hash))
		if err != nil {
			return "", err
		}
		b.WriteString(diff.CommitHeaderIn(rp, c))
		var parent = plumbing.ZeroHash
		if len(c.ParentHashes) > 0 {
			p, err := rp.Git.CommitObject(c.ParentHashes[0])
			if err != nil {
				return "", err
			}
			parent = p.TreeHash
		}
		changes, err := diff.Trees(rp, ctx, parent, c.TreeHash, rel)
		if err != nil {
			return "", err
		}
		_, patch, err := diff.Render(rp, ctx, changes, diff.DefaultContext, false)
		if err != nil {
			return "", err
		}
		b.WriteString("\n" + patch + "\n")
	}
	return b.String(), nil
}

// openFor opens the repository holding path, which may be a file that no longer exists in the worktree.
func (r *Repos) openFor(ctx context.Context, sc *roots.Scope, path string) (*repo.Repo, func(), error) {
	if err := scope.RefuseTilde(path); err != nil {
		return nil, nil, err
	}
	rp, unlock, err := r.open(ctx, sc, path)
	if err == nil {
		return rp, unlock, nil
	}
	abs := path
	if roots.IsURI(path) {
		if abs, err = roots.Parse(path); err != nil {
			return nil, nil, repo.ErrNoRepo(path)
		}
	}
	for d := filepath.Dir(abs); filepath.IsAbs(d) && d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := sc.Resolve(d); err != nil {
			break
		}
		if rp, unlock, err := r.open(ctx, sc, d); err == nil {
			return rp, unlock, nil
		}
	}
	return nil, nil, repo.ErrNoRepo(path)
}

// Subjects returns the subjects of the last n commits on HEAD, newest first.
func (r *Repos) Subjects(ctx context.Context, sc *roots.Scope, repoPath string, n int) ([]string, error) {
	rp, unlock, err := r.open(ctx, sc, repoPath)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if n <= 0 {
		n = history.DefaultCount
	}
	out, err := history.Log(rp, ctx, history.Query{Max: min(n, history.MaxCount)})
	if err != nil {
		return nil, err
	}
	subjects := make([]string, 0, len(out.Commits))
	for _, c := range out.Commits {
		subjects = append(subjects, c.Subject)
	}
	return subjects, nil
}

// maxRevisions caps Revisions; recentCommits is how many recent commits offer their short hash.
const (
	maxRevisions  = 100
	recentCommits = 50
)

// Revisions returns branch names, tag names and short hashes of recent commits that start with prefix
// (for argument completion), branches first, each group sorted.
func (r *Repos) Revisions(ctx context.Context, sc *roots.Scope, repoPath, prefix string) ([]string, error) {
	rp, unlock, err := r.open(ctx, sc, repoPath)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var out []string
	add := func(group []string) {
		sort.Strings(group)
		for _, s := range group {
			if strings.HasPrefix(s, prefix) && len(out) < maxRevisions {
				out = append(out, s)
			}
		}
	}
	br, err := refs.Branches(rp, true, true)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, b := range br.Branches {
		names = append(names, b.Name)
	}
	add(names)
	tags, err := refs.Tags(rp)
	if err != nil {
		return nil, err
	}
	names = names[:0]
	for _, t := range tags {
		names = append(names, t.Name)
	}
	add(names)
	log, err := history.Log(rp, ctx, history.Query{Max: recentCommits})
	if err != nil {
		return nil, err
	}
	names = names[:0]
	for _, c := range log.Commits {
		names = append(names, c.Hash[:7])
	}
	add(names)
	return out, nil
}
