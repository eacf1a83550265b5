package gittools

// The write tools: git_add, git_reset, git_commit, git_create_branch, git_checkout, git_init (and the creating
// half of git_tag, see write_tag.go). Every one holds the repository lock for its whole run, reads and writes
// worktree files only through an os.Root of the worktree, writes .git/index through index.lock and a rename,
// and never runs the git program.
//
// # Confirmation (elicitation)
//
// None of these tools discards a change, so none asks the user to confirm (no elicitation, legacy or MRTR):
// git_reset only rewrites index entries and never touches the worktree, so every edit stays where the user
// made it; a staged version that differs from the worktree leaves the index but its blob stays in the
// repository, and the result names that blob. git_checkout refuses, naming the files, whenever switching would
// overwrite or delete an uncommitted change in the worktree or the index, or an untracked file, and has no
// force option. Elicitation would be needed only for a discarding mode, which grove does not offer.

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/scope"
)

// registerWriteTools adds the tools that change a repository. Register calls it only when the server is not read-only.
func (r *Repos) registerWriteTools(s *mcp.Server) {
	p := r.opts.Scope
	scope.AddTool(s, &mcp.Tool{Name: "git_add", Title: "Stage files",
		Description: "Stage files for the next commit: new and modified files, deletions of tracked files, and the " +
			"non-ignored contents of directories. Paths are relative to the worktree or absolute inside it.",
		Annotations: writeHints(false, true)}, p, r.add)
	scope.AddTool(s, &mcp.Tool{Name: "git_reset", Title: "Unstage files",
		Description: "Unstage files: set their index entries back to HEAD's (all files when none are given). " +
			"The worktree is never touched, so no edit is lost.",
		Annotations: writeHints(true, true)}, p, r.reset)
	scope.AddTool(s, &mcp.Tool{Name: "git_commit", Title: "Commit staged changes",
		Description: "Record the staged changes as a new commit on the current branch. The author and committer " +
			"come from the user's git configuration or environment, never from the caller.",
		Annotations: writeHints(false, false)}, p, r.commitTool)
	scope.AddTool(s, &mcp.Tool{Name: "git_create_branch", Title: "Create a branch",
		Description: "Create a new local branch at base_branch (default HEAD) without switching to it.",
		Annotations: writeHints(false, false)}, p, r.createBranch)
	scope.AddTool(s, &mcp.Tool{Name: "git_checkout", Title: "Switch branches",
		Description: "Switch the worktree, index and HEAD to an existing local branch. Refuses, naming the files, " +
			"when uncommitted changes or untracked files would be overwritten; local changes to files the switch " +
			"does not touch are kept.",
		Annotations: writeHints(true, true)}, p, r.checkout)
	scope.AddTool(s, &mcp.Tool{Name: "git_init", Title: "Create a repository",
		Description: "Create an empty git repository in a directory inside a root (the directory is created if missing).",
		Annotations: writeHints(false, false)}, p, r.initRepo)
}

// writeHints are the annotations of a write tool.
func writeHints(destructive, idempotent bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{DestructiveHint: ptr(destructive), IdempotentHint: idempotent, OpenWorldHint: ptr(false)}
}

// textResult is a result whose content is the compact text t; the SDK adds the structured output.
func textResult(t string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: t}}}
}

// maxListed is how many paths a write tool's text names before it summarises the rest.
const maxListed = 100

// listText renders "\nlabel (n): a, b, …" for a non-empty list, naming at most maxListed entries; the
// structured output always holds the full list.
func listText(label string, ps []string) string {
	if len(ps) == 0 {
		return ""
	}
	shown := ps
	if len(ps) > maxListed {
		shown = ps[:maxListed]
	}
	s := fmt.Sprintf("\n%s (%d): %s", label, len(ps), strings.Join(shown, ", "))
	if len(ps) > maxListed {
		s += fmt.Sprintf(" … and %d more (see the structured output)", len(ps)-maxListed)
	}
	return s
}
