package status

import (
	"context"
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing"
)

// upstream fills the upstream fields of out for branch: its configured upstream and how far HEAD is ahead
// of and behind it, as `git status --branch` shows them.
func upstream(rp *repo.Repo, ctx context.Context, out *StatusOut) error {
	cfg, err := rp.Git.Config()
	if err != nil {
		return err
	}
	b := cfg.Branches[out.Branch]
	if b == nil || b.Remote == "" || b.Merge == "" {
		return nil
	}
	ref := plumbing.ReferenceName("refs/remotes/" + b.Remote + "/" + strings.TrimPrefix(string(b.Merge), "refs/heads/"))
	if b.Remote == "." {
		ref = b.Merge
	}
	out.Upstream = strings.TrimPrefix(strings.TrimPrefix(string(ref), "refs/remotes/"), "refs/heads/")
	up, err := rp.Git.Reference(ref, true)
	if err != nil {
		out.UpstreamGone = true
		return nil
	}
	head, err := rp.Git.Head()
	if err != nil {
		return err
	}
	if out.Ahead, err = countOnly(rp, ctx, head.Hash(), up.Hash()); err != nil {
		return err
	}
	out.Behind, err = countOnly(rp, ctx, up.Hash(), head.Hash())
	return err
}

// countOnly counts the commits reachable from from but not from hide (git rev-list --count hide..from).
func countOnly(rp *repo.Repo, ctx context.Context, from, hide plumbing.Hash) (int, error) {
	if from == hide {
		return 0, nil
	}
	w := repo.NewWalker(rp)
	if err := w.PushHash(from, false); err != nil {
		return 0, err
	}
	if err := w.PushHash(hide, true); err != nil {
		return 0, err
	}
	n := 0
	for {
		c, err := w.Next(ctx)
		if err != nil || c == nil {
			return n, err
		}
		n++
		if err := w.Follow(c.ParentHashes...); err != nil {
			return n, err
		}
	}
}

// branchHeader is the first line of `git status --short --branch`.
func branchHeader(out StatusOut) string {
	switch {
	case out.Detached:
		return "## HEAD (no branch)"
	case out.Unborn:
		return "## No commits yet on " + out.Branch
	case out.Upstream == "":
		return "## " + out.Branch
	case out.UpstreamGone:
		return fmt.Sprintf("## %s...%s [gone]", out.Branch, out.Upstream)
	}
	h := fmt.Sprintf("## %s...%s", out.Branch, out.Upstream)
	switch {
	case out.Ahead > 0 && out.Behind > 0:
		h += fmt.Sprintf(" [ahead %d, behind %d]", out.Ahead, out.Behind)
	case out.Ahead > 0:
		h += fmt.Sprintf(" [ahead %d]", out.Ahead)
	case out.Behind > 0:
		h += fmt.Sprintf(" [behind %d]", out.Behind)
	}
	return h
}
