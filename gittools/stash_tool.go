package gittools

// git_stash (internal/stashcmd).

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/gittools/internal/stashcmd"
	"github.com/grove-mcp/grove/gittools/internal/writecmd"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

func (r *Repos) registerStashTool(s *mcp.Server) {
	scope.AddTool(s, &mcp.Tool{Name: "git_stash", Title: "Stash local changes",
		Description: "Save local changes (staged and unstaged; with include_untracked also untracked files) as a stash " +
			"git reads too, and reset them to HEAD (push); list the stashes; show one's patch; apply or pop one back " +
			"(conflicts are left as git_merge leaves them, and pop then keeps the stash); drop one. index picks stash@{n}.",
		Annotations: writeHints(true, false)}, r.opts.Scope, r.stashTool)
}

func (r *Repos) stashTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in stashcmd.Args) (*mcp.CallToolResult, stashcmd.Out, error) {
	rp, unlock, err := r.open(ctx, sc, impliedRepo(sc, in.RepoPath, in.Paths...))
	if err != nil {
		return nil, stashcmd.Out{}, err
	}
	defer unlock()
	var rels []string
	if len(in.Paths) > 0 {
		if rels, err = writecmd.WorktreePaths(rp, sc, in.Paths); err != nil {
			return nil, stashcmd.Out{}, err
		}
	}
	out, err := stashcmd.Run(rp, ctx, in, rels)
	if err != nil {
		return nil, stashcmd.Out{}, err
	}
	return textResult(stashText(out, in.Index)), out, nil
}

func stashText(out stashcmd.Out, n int) string {
	var b strings.Builder
	name := fmt.Sprintf("stash@{%d}", n)
	switch out.Action {
	case "push":
		if out.Nothing {
			return "No local changes to save."
		}
		fmt.Fprintf(&b, "Saved the local changes as stash@{0} (%s) and reset them to HEAD.%s", out.Stash[:7], writecmd.ListText("stashed", out.Saved))
	case "list":
		if len(out.Entries) == 0 {
			return "No stashes."
		}
		for _, e := range out.Entries {
			fmt.Fprintf(&b, "%s: %s\n", e.Name, e.Message)
		}
	case "show":
		fmt.Fprintf(&b, "%s (%s):\n%s", name, out.Stash[:7], out.Patch)
	case "apply", "pop":
		if len(out.Conflicts) > 0 {
			fmt.Fprintf(&b, "Applied %s with %d conflicted path(s); the stash is kept. Resolve the files and git_add them:", name, len(out.Conflicts))
			for _, c := range out.Conflicts {
				fmt.Fprintf(&b, "\n  CONFLICT (%s): %s", c.Kind, c.Path)
			}
		} else {
			fmt.Fprintf(&b, "Applied %s (%s).", name, out.Stash[:7])
			if out.Dropped {
				b.WriteString(" Dropped it.")
			}
		}
	case "drop":
		fmt.Fprintf(&b, "Dropped %s (%s).", name, out.Stash[:7])
	}
	return strings.TrimRight(b.String(), "\n")
}
