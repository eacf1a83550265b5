package prompts

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
)

// ConflictSource is the part of *gittools.Repos the resolve_conflicts prompt uses; a Git that lacks it makes the
// prompt refuse.
type ConflictSource interface {
	// Conflicts describes each conflicted path of the repository with its hunks (ours, base, theirs); "" when
	// nothing is conflicted.
	Conflicts(ctx context.Context, sc *roots.Scope, repoPath string) (string, error)
}

var resolveConflictsDef = &mcp.Prompt{
	Name:        "resolve_conflicts",
	Title:       "Resolve merge conflicts",
	Description: "Resolve the conflicts of a merge, cherry-pick, revert or stash apply that stopped: every conflicted hunk is embedded with ours, the base and theirs.",
	Arguments:   []*mcp.PromptArgument{argRepoPath},
}

type conflictsData struct {
	Repo string
	Cut  bool
}

func (p *Prompts) resolveConflicts(ctx context.Context, req *mcp.GetPromptRequest, sc *roots.Scope) (*mcp.GetPromptResult, error) {
	r, err := openRepo(sc, "resolve_conflicts", req.Params.Arguments["repo_path"])
	if err != nil {
		return nil, err
	}
	cs, ok := p.opts.Git.(ConflictSource)
	if !ok {
		return nil, invalidParams("prompt resolve_conflicts: this server cannot read conflicts")
	}
	desc, err := cs.Conflicts(ctx, sc, r.arg)
	if err != nil {
		return nil, r.gitError(err)
	}
	if desc == "" {
		msg, err := render("resolve_conflicts_none", conflictsData{Repo: r.abs})
		if err != nil {
			return nil, err
		}
		return &mcp.GetPromptResult{Description: "No conflicts", Messages: []*mcp.PromptMessage{text(msg)}}, nil
	}
	m := p.material(desc)
	m.uri, m.mimeType, m.what, m.link = gitURI("conflicts", r.uri, nil), "text/plain", "conflicts", r.link()
	m.hint = "hint_diff"
	return result("Conflicts to resolve in "+r.abs, "resolve_conflicts", conflictsData{Repo: r.abs, Cut: m.cut}, m)
}
