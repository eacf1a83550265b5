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
	"context"
	"fmt"

	"github.com/grove-mcp/grove/gittools/internal/refs"

	"github.com/grove-mcp/grove/gittools/internal/writecmd"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/roots"
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
	r.registerHistoryTools(s)
	r.registerStashTool(s)
	r.registerRestoreTool(s)
}

// writeHints are the annotations of a write tool.
func writeHints(destructive, idempotent bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{DestructiveHint: ptr(destructive), IdempotentHint: idempotent, OpenWorldHint: ptr(false)}
}

// textResult is a result whose content is the compact text t; the SDK adds the structured output.
func textResult(t string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: t}}}
}

// writeEnv is what the write commands run with for a request in scope sc.
func (r *Repos) writeEnv(sc *roots.Scope) writecmd.Env {
	return writecmd.Env{Scope: sc, Log: r.log,
		Open: func(ctx context.Context, repoPath string, paths ...string) (*repo.Repo, func(), error) {
			return r.open(ctx, sc, impliedRepo(sc, repoPath, paths...))
		}}
}

// answer turns a command's answer into the tool's result: its text, and the answer as structured output.
func answer[O interface{ Text() string }](out O, err error) (*mcp.CallToolResult, O, error) {
	if err != nil {
		var zero O
		return nil, zero, err
	}
	return textResult(out.Text()), out, nil
}

func (r *Repos) add(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in writecmd.AddArgs) (*mcp.CallToolResult, writecmd.AddOut, error) {
	return answer(writecmd.Add(ctx, r.writeEnv(sc), in))
}

func (r *Repos) createBranch(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in writecmd.CreateBranchArgs) (*mcp.CallToolResult, writecmd.CreateBranchOut, error) {
	return answer(writecmd.CreateBranch(ctx, r.writeEnv(sc), in))
}

func (r *Repos) checkout(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in writecmd.CheckoutArgs) (*mcp.CallToolResult, writecmd.CheckoutOut, error) {
	return answer(writecmd.Checkout(ctx, r.writeEnv(sc), in))
}

func (r *Repos) commitTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in writecmd.CommitArgs) (*mcp.CallToolResult, writecmd.CommitOut, error) {
	return answer(writecmd.Commit(ctx, r.writeEnv(sc), in))
}

func (r *Repos) initRepo(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in writecmd.InitArgs) (*mcp.CallToolResult, writecmd.InitOut, error) {
	return answer(writecmd.Init(ctx, r.writeEnv(sc), in))
}

// reset only writes .git/index: worktree files keep every change, which is why it does not ask the user to
// confirm (see writecmd.Reset).
func (r *Repos) reset(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in writecmd.ResetArgs) (*mcp.CallToolResult, writecmd.ResetOut, error) {
	return answer(writecmd.Reset(ctx, r.writeEnv(sc), in))
}

// createTag creates the tag in.Name at in.Revision (default HEAD). rp is locked by the caller.
func (r *Repos) createTag(ctx context.Context, rp *repo.Repo, in refs.TagArgs) (*mcp.CallToolResult, refs.TagOut, error) {
	out, err := writecmd.CreateTag(rp, ctx, in)
	if err != nil {
		return nil, refs.TagOut{}, err
	}
	info := out.Tags[0]
	return textResult(fmt.Sprintf("Created annotated tag %s at %s.", info.Name, refs.ShortHash(info.Commit))), out, nil
}
