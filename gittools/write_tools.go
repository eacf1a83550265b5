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
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/grove-mcp/grove/gittools/internal/refs"

	"github.com/grove-mcp/grove/gittools/internal/writecmd"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/internal/words"
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

func (r *Repos) add(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in writecmd.AddArgs) (*mcp.CallToolResult, writecmd.AddOut, error) {
	if len(in.Files) == 0 {
		return nil, writecmd.AddOut{}, errors.New("files is empty: name at least one path to stage")
	}
	rp, unlock, err := r.open(ctx, sc, impliedRepo(sc, in.RepoPath, in.Files...))
	if err != nil {
		return nil, writecmd.AddOut{}, err
	}
	defer unlock()
	rels, err := writecmd.WorktreePaths(rp, sc, in.Files)
	if err != nil {
		return nil, writecmd.AddOut{}, err
	}
	st, err := writecmd.NewStager(rp)
	if err != nil {
		return nil, writecmd.AddOut{}, err
	}
	defer st.Close()
	for _, rel := range rels {
		if err := st.AddPath(ctx, rel); err != nil {
			return nil, writecmd.AddOut{}, err
		}
	}
	if st.Dirty || len(st.Removed) > 0 {
		if err := st.Ix.Save(); err != nil {
			return nil, writecmd.AddOut{}, err
		}
		rp.Changed()
	}
	slices.Sort(st.Staged)
	out := writecmd.AddOut{Staged: st.Staged, Removed: st.Removed, Skipped: st.Skipped}
	return textResult(writecmd.AddText(out)), out, nil
}

func (r *Repos) createBranch(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in writecmd.CreateBranchArgs) (*mcp.CallToolResult, writecmd.CreateBranchOut, error) {
	name, err := writecmd.BranchName(in.BranchName)
	if err != nil {
		return nil, writecmd.CreateBranchOut{}, err
	}
	base := in.BaseBranch
	if base == "" {
		base = "HEAD"
	}
	if err := repo.ValidRevision(base); err != nil {
		return nil, writecmd.CreateBranchOut{}, err
	}
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, writecmd.CreateBranchOut{}, err
	}
	defer unlock()
	h, err := rp.Resolve(base)
	if err != nil {
		return nil, writecmd.CreateBranchOut{}, err
	}
	if err := writecmd.CreateRef(rp, plumbing.NewHashReference(name, h)); err != nil {
		return nil, writecmd.CreateBranchOut{}, err
	}
	if err := gitwrite.AppendReflog(rp, name, plumbing.ZeroHash, h, "branch: Created from "+base); err != nil {
		r.log.Debug("reflog not written", "ref", name, "err", err)
	}
	out := writecmd.CreateBranchOut{Branch: name.Short(), Commit: h.String(), Short: h.String()[:repo.ShortLen]}
	text := fmt.Sprintf("Created branch %s at %s (from %s). HEAD did not move; use git_checkout to switch.", out.Branch, out.Short, base)
	return textResult(text), out, nil
}

func (r *Repos) checkout(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in writecmd.CheckoutArgs) (*mcp.CallToolResult, writecmd.CheckoutOut, error) {
	name, err := writecmd.BranchName(in.Branch)
	if err != nil {
		return nil, writecmd.CheckoutOut{}, err
	}
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, writecmd.CheckoutOut{}, err
	}
	defer unlock()
	target, err := rp.Git.Storer.Reference(name)
	if err != nil {
		return nil, writecmd.CheckoutOut{}, writecmd.NoBranch(rp, name)
	}
	head, err := rp.Git.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return nil, writecmd.CheckoutOut{}, fmt.Errorf("reading HEAD: %w", err)
	}
	out := writecmd.CheckoutOut{Branch: name.Short(), Commit: target.Hash().String(), Short: target.Hash().String()[:repo.ShortLen]}
	if head.Type() == plumbing.SymbolicReference && head.Target() == name {
		return textResult(fmt.Sprintf("Already on %s (%s); nothing changed.", out.Branch, out.Short)), out, nil
	}
	if err := writecmd.SwitchTo(rp, ctx, head, target, &out); err != nil {
		return nil, writecmd.CheckoutOut{}, err
	}
	text := fmt.Sprintf("Switched to branch %s (%s): %s written, %d removed; local changes to other files were kept.",
		out.Branch, out.Short, words.Count(len(out.Updated), "file", "files"), len(out.Removed))
	return textResult(text + writecmd.ListText("written", out.Updated) + writecmd.ListText("removed", out.Removed)), out, nil
}

func (r *Repos) commitTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in writecmd.CommitArgs) (*mcp.CallToolResult, writecmd.CommitOut, error) {
	msg := gitwrite.CleanMessage(in.Message) // empty: CommitIndex takes a merge's message, or refuses
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, writecmd.CommitOut{}, err
	}
	defer unlock()
	out, err := writecmd.CommitIndex(rp, ctx, msg)
	if err != nil {
		return nil, writecmd.CommitOut{}, err
	}
	where := out.Branch
	if where == "" {
		where = "detached HEAD"
	}
	text := fmt.Sprintf("[%s %s] %s\n%s changed", where, out.Short, out.Summary, words.Count(out.Files, "file", "files"))
	return textResult(text), out, nil
}

// initRepo creates the repository layout itself, through the root's os.Root, in a temporary directory renamed
// to .git at the end: go-git's PlainInit would write through plain paths, and a half-made .git would look
// like a broken repository.
func (r *Repos) initRepo(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in writecmd.InitArgs) (*mcp.CallToolResult, writecmd.InitOut, error) {
	if err := ctx.Err(); err != nil {
		return nil, writecmd.InitOut{}, err
	}
	if in.RepoPath == "" {
		root, err := scope.DefaultRoot(sc, "repo_path")
		if err != nil {
			return nil, writecmd.InitOut{}, err
		}
		in.RepoPath = root.URI
	}
	if err := scope.RefuseTilde(in.RepoPath); err != nil {
		return nil, writecmd.InitOut{}, err
	}
	loc, err := sc.Resolve(in.RepoPath)
	if err != nil || loc.Root.File || gitwrite.IsGitPath(loc.Rel) {
		return nil, writecmd.InitOut{}, fmt.Errorf("cannot create a repository at %q: %w", in.RepoPath, roots.ErrNotFound)
	}
	if err := loc.FS().MkdirAll(loc.Name(), 0o755); err != nil {
		return nil, writecmd.InitOut{}, fmt.Errorf("creating %q: %w", in.RepoPath, repo.PathErr(err))
	}
	dir, err := loc.FS().OpenRoot(loc.Name())
	if err != nil {
		return nil, writecmd.InitOut{}, fmt.Errorf("opening %q: %w", in.RepoPath, repo.PathErr(err))
	}
	defer dir.Close()
	if writecmd.IsRepoDir(dir) {
		return nil, writecmd.InitOut{}, fmt.Errorf("%q is already a git repository", in.RepoPath)
	}
	branch := writecmd.DefaultBranch()
	if err := writecmd.WriteGitDir(dir, branch); err != nil {
		return nil, writecmd.InitOut{}, err
	}
	r.log.Info("initialized repository", "path", loc.Abs())
	out := writecmd.InitOut{Path: loc.Abs(), Branch: branch}
	text := fmt.Sprintf("Initialized empty Git repository in %s (branch %s, no commits yet).",
		filepath.Join(out.Path, ".git"), branch)
	return textResult(text), out, nil
}

// reset sets index entries back to HEAD's. It only writes .git/index: worktree files keep every change, which
// is why it does not ask the user to confirm. A staged version that differs from the worktree leaves the index
// but not the repository (its blob stays), and the result names it with its blob hash.
func (r *Repos) reset(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in writecmd.ResetArgs) (*mcp.CallToolResult, writecmd.ResetOut, error) {
	rp, unlock, err := r.open(ctx, sc, impliedRepo(sc, in.RepoPath, in.Files...))
	if err != nil {
		return nil, writecmd.ResetOut{}, err
	}
	defer unlock()
	rels, err := writecmd.WorktreePaths(rp, sc, in.Files)
	if err != nil {
		return nil, writecmd.ResetOut{}, err
	}
	if len(rels) == 0 {
		rels = []string{"."}
	}
	head, err := rp.HeadCommit()
	if err != nil {
		return nil, writecmd.ResetOut{}, fmt.Errorf("reading HEAD: %w", err)
	}
	headFiles, err := gitwrite.FlatTree(rp, ctx, head)
	if err != nil {
		return nil, writecmd.ResetOut{}, fmt.Errorf("reading HEAD's tree: %w", err)
	}
	ix, err := gitwrite.LoadIndex(rp)
	if err != nil {
		return nil, writecmd.ResetOut{}, err
	}
	defer ix.Close()
	if err := writecmd.CheckPathspecs(rels, ix.All(), headFiles); err != nil {
		return nil, writecmd.ResetOut{}, err
	}
	prev := ix.ByName // replaceAll leaves this map alone
	unstaged := writecmd.ResetEntries(ix, headFiles, rels)
	if len(unstaged) == 0 {
		return textResult("Nothing to unstage: the index already matches HEAD for these paths."), writecmd.ResetOut{}, nil
	}
	out := writecmd.ResetOut{Unstaged: unstaged, StagedOnly: writecmd.StagedOnly(rp, ctx, prev, headFiles, unstaged)}
	if err := ix.Save(); err != nil {
		return nil, writecmd.ResetOut{}, err
	}
	rp.Changed()
	text := "Unstaged; the worktree is unchanged." + writecmd.ListText("unstaged", unstaged)
	if len(out.StagedOnly) > 0 {
		text += "\nThe staged versions of these files differed from the worktree; they are no longer in the index " +
			"but stay in the object database (git show <blob> or git fsck --lost-found recovers them until gc):" +
			writecmd.ListText("staged-only versions", out.StagedOnly)
	}
	return textResult(text), out, nil
}

// createTag creates the tag in.Name at in.Revision (default HEAD). rp is locked by the caller.
func (r *Repos) createTag(ctx context.Context, rp *repo.Repo, in refs.TagArgs) (*mcp.CallToolResult, refs.TagOut, error) {
	if err := ctx.Err(); err != nil {
		return nil, refs.TagOut{}, err
	}
	name, err := writecmd.TagName(in.Name)
	if err != nil {
		return nil, refs.TagOut{}, err
	}
	rev := in.Revision
	if rev == "" {
		rev = "HEAD"
	}
	target, err := rp.Resolve(rev)
	if err != nil {
		return nil, refs.TagOut{}, err
	}
	if _, err := rp.Git.Storer.Reference(name); err == nil {
		return nil, refs.TagOut{}, fmt.Errorf("tag %q already exists", name.Short())
	}
	msg, err := writecmd.TagMessage(name.Short(), in.Message)
	if err != nil {
		return nil, refs.TagOut{}, err
	}
	refHash, err := writecmd.WriteTagObject(rp, name.Short(), target, msg)
	if err != nil {
		return nil, refs.TagOut{}, err
	}
	if err := writecmd.CreateRef(rp, plumbing.NewHashReference(name, refHash)); err != nil {
		return nil, refs.TagOut{}, err
	}
	rp.Changed()
	info := refs.TagInfo{Name: name.Short(), Commit: target.String(), Annotated: true, Subject: gitwrite.SummaryLine(msg)}
	text := fmt.Sprintf("Created annotated tag %s at %s.", info.Name, refs.ShortHash(info.Commit))
	return textResult(text), refs.TagOut{Tags: []refs.TagInfo{info}, Created: true}, nil
}
