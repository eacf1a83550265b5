package gittools

// git_restore (internal/restorecmd).

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/gittools/internal/restorecmd"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

func (r *Repos) registerRestoreTool(s *mcp.Server) {
	scope.AddTool(s, &mcp.Tool{Name: "git_restore", Title: "Restore files",
		Description: "Discard worktree changes to files by restoring them from the index (or from a source revision), " +
			"or with staged unstage them (index entries from HEAD or source; the worktree is not touched). Every " +
			"overwritten or deleted worktree version is saved as a blob first and named in the answer; dry_run lists " +
			"what would change without changing anything.",
		Annotations: writeHints(true, true)}, r.opts.Scope, r.restoreTool)
}

func (r *Repos) restoreTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in restorecmd.Args) (*mcp.CallToolResult, restorecmd.Out, error) {
	rp, unlock, err := r.open(ctx, sc, impliedRepo(sc, in.RepoPath, in.Paths...))
	if err != nil {
		return nil, restorecmd.Out{}, err
	}
	defer unlock()
	rels, err := writecmd.WorktreePaths(rp, sc, in.Paths)
	if err != nil {
		return nil, restorecmd.Out{}, err
	}
	out, err := restorecmd.Run(rp, ctx, in, rels)
	if err != nil {
		return nil, restorecmd.Out{}, err
	}
	return textResult(restoreText(out, in.Staged)), out, nil
}

func restoreText(out restorecmd.Out, staged bool) string {
	if len(out.Restored)+len(out.Removed) == 0 {
		return "Nothing to restore: the files already match the source."
	}
	var b strings.Builder
	verb := map[bool]string{false: "Restored", true: "Would restore"}[out.DryRun]
	where := map[bool]string{false: "worktree files", true: "index entries (the worktree is unchanged)"}[staged]
	fmt.Fprintf(&b, "%s %d %s.", verb, len(out.Restored)+len(out.Removed), where)
	b.WriteString(writecmd.ListText("restored", out.Restored))
	b.WriteString(writecmd.ListText("removed", out.Removed))
	if len(out.Discarded) > 0 {
		b.WriteString("\nVersions replaced (saved as blobs; git show <blob> recovers them until gc):")
		for _, d := range out.Discarded {
			fmt.Fprintf(&b, "\n  %s: %s", d.Path, d.Blob)
		}
	}
	return b.String()
}
