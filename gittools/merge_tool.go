package gittools

// git_merge, git_cherry_pick and git_revert: the history tools built on grove's merge engine
// (internal/merge, internal/mergecmd).

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/gittools/internal/mergecmd"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// registerHistoryTools adds git_merge, git_cherry_pick and git_revert (write tools: not in read-only mode).
func (r *Repos) registerHistoryTools(s *mcp.Server) {
	p := r.opts.Scope
	scope.AddTool(s, &mcp.Tool{Name: "git_merge", Title: "Merge a branch",
		Description: "Merge a branch, tag or commit into the current branch as git does (fast-forward when possible, " +
			"else a merge commit with both parents; renames followed). On conflicts nothing is committed: the files get " +
			"git's conflict markers, the index the conflict stages, and the answer lists each conflicted path and kind; " +
			"resolve, git_add the files and git_commit to conclude, or call again with action abort. Refuses when local " +
			"changes would be overwritten.",
		Annotations: writeHints(true, false)}, p, r.mergeTool)
	scope.AddTool(s, &mcp.Tool{Name: "git_cherry_pick", Title: "Cherry-pick commits",
		Description: "Apply the changes of existing commits onto the current branch, one new commit each (author and " +
			"message kept; no \"cherry picked from\" line, as git's default). Stops on conflicts like git_merge: resolve, " +
			"git_add, then action continue; or action abort to return to where the sequence started.",
		Annotations: writeHints(true, false)}, p, r.cherryPickTool)
	scope.AddTool(s, &mcp.Tool{Name: "git_revert", Title: "Revert commits",
		Description: "Make new commits that undo existing commits (message: Revert \"<subject>\" ... This reverts commit " +
			"<hash>.). Stops on conflicts like git_merge: resolve, git_add, then action continue; or action abort.",
		Annotations: writeHints(true, false)}, p, r.revertTool)
}

func (r *Repos) cherryPickTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in mergecmd.PickArgs) (*mcp.CallToolResult, mergecmd.Out, error) {
	return r.pick(ctx, sc, in, false)
}

func (r *Repos) revertTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in mergecmd.PickArgs) (*mcp.CallToolResult, mergecmd.Out, error) {
	return r.pick(ctx, sc, in, true)
}

func (r *Repos) pick(ctx context.Context, sc *roots.Scope, in mergecmd.PickArgs, revert bool) (*mcp.CallToolResult, mergecmd.Out, error) {
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, mergecmd.Out{}, err
	}
	defer unlock()
	out, err := mergecmd.Pick(rp, ctx, in, revert)
	if err != nil {
		return nil, mergecmd.Out{}, err
	}
	what := strings.Join(in.Revisions, " ")
	if out.Result == mergecmd.ResultMerged {
		verb := "Cherry-picked"
		if revert {
			verb = "Reverted"
		}
		text := fmt.Sprintf("%s %s: %d new commit(s); HEAD is %s.", verb, what, len(out.Picked), out.Commit[:min(len(out.Commit), repo.ShortLen)])
		if in.NoCommit {
			text = "Applied the changes to the index and worktree without committing (no_commit)."
		}
		return textResult(text), out, nil
	}
	return textResult(historyText(out, what)), out, nil
}

func (r *Repos) mergeTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in mergecmd.MergeArgs) (*mcp.CallToolResult, mergecmd.Out, error) {
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, mergecmd.Out{}, err
	}
	defer unlock()
	out, err := mergecmd.Merge(rp, ctx, in)
	if err != nil {
		return nil, mergecmd.Out{}, err
	}
	return textResult(historyText(out, in.Revision)), out, nil
}

// historyText is the compact answer of a merge, cherry-pick or revert.
func historyText(out mergecmd.Out, what string) string {
	short := func(h string) string { return h[:min(len(h), repo.ShortLen)] }
	var b strings.Builder
	switch out.Result {
	case mergecmd.ResultUpToDate:
		b.WriteString("Already up to date.")
	case mergecmd.ResultFastForward:
		fmt.Fprintf(&b, "Fast-forward to %s (%s).", what, short(out.Commit))
	case mergecmd.ResultMerged:
		fmt.Fprintf(&b, "Merged %s: new commit %s.", what, short(out.Commit))
	case mergecmd.ResultAborted:
		fmt.Fprintf(&b, "Aborted; HEAD is %s as before, and the files the operation changed are back to HEAD's version.", short(out.Commit))
	case mergecmd.ResultConflicts:
		fmt.Fprintf(&b, "Stopped on %d conflicted path(s); nothing was committed. Edit the files (markers <<<<<<< ======= >>>>>>>), "+
			"git_add them, then conclude (git_commit for a merge; action continue for cherry-pick and revert), or use action abort.", len(out.Conflicts))
		for _, c := range out.Conflicts {
			fmt.Fprintf(&b, "\n  CONFLICT (%s): %s", c.Kind, c.Path)
		}
	}
	for _, p := range out.Picked {
		if out.Result == mergecmd.ResultAborted {
			break
		}
		fmt.Fprintf(&b, "\n  made %s", short(p))
	}
	if len(out.Remaining) > 0 {
		fmt.Fprintf(&b, "\n  still to apply: %s", strings.Join(out.Remaining, " "))
	}
	if n := len(out.Updated) + len(out.Removed); n > 0 && out.Result != mergecmd.ResultConflicts {
		fmt.Fprintf(&b, "\n%d file(s) written, %d removed.", len(out.Updated), len(out.Removed))
	}
	return b.String()
}
