package writecmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/diff"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/internal/words"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// CommitArgs are the arguments of git_commit.
type CommitArgs struct {
	RepoPath string `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; required when there are several)"`
	Message  string `json:"message" jsonschema:"the commit message: a summary line, optionally a blank line and a body"`
}

// CommitOut is the result of git_commit.
type CommitOut struct {
	Hash    string `json:"hash" jsonschema:"the new commit's full hash"`
	Short   string `json:"short" jsonschema:"the new commit's short hash"`
	Branch  string `json:"branch,omitempty" jsonschema:"the branch that moved (empty on a detached HEAD)"`
	Summary string `json:"summary" jsonschema:"the message's first line"`
	Files   int    `json:"files_changed" jsonschema:"how many paths the commit changes"`
}

// Commit runs git_commit: it records the staged changes as a commit on HEAD's branch (or a detached HEAD),
// with the author and committer from the user's git configuration.
func Commit(ctx context.Context, env Env, in CommitArgs) (CommitOut, error) {
	msg := gitwrite.CleanMessage(in.Message) // empty: commitIndex takes a merge's message, or refuses
	rp, unlock, err := env.Open(ctx, in.RepoPath)
	if err != nil {
		return CommitOut{}, err
	}
	defer unlock()
	return commitIndex(rp, ctx, msg)
}

// Text is git_commit's answer for the model.
func (out CommitOut) Text() string {
	where := cmp.Or(out.Branch, "detached HEAD")
	return fmt.Sprintf("[%s %s] %s\n%s changed", where, out.Short, out.Summary, words.Count(out.Files, "file", "files"))
}

// commitIndex records the index as a commit on HEAD's branch (or on a detached HEAD).
func commitIndex(rp *repo.Repo, ctx context.Context, msg string) (CommitOut, error) {
	ix, err := gitwrite.LoadIndex(rp)
	if err != nil {
		return CommitOut{}, err
	}
	defer ix.Close()
	if u := ix.Unmerged(); len(u) > 0 {
		return CommitOut{}, fmt.Errorf("cannot commit: unmerged paths (resolve them and git_add them first): %s", strings.Join(u, ", "))
	}
	head, err := rp.Git.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return CommitOut{}, fmt.Errorf("reading HEAD: %w", err)
	}
	parent, err := rp.HeadCommit()
	if err != nil {
		return CommitOut{}, fmt.Errorf("reading HEAD's commit: %w", err)
	}
	merging, mergeMsg, err := pendingMerge(rp)
	if err != nil {
		return CommitOut{}, err
	}
	if msg == "" {
		msg = mergeMsg
	}
	if msg == "" {
		return CommitOut{}, errors.New("empty commit message: give a message describing the change")
	}
	entries := ix.All()
	tree, err := gitwrite.WriteTree(rp, entries)
	if err != nil {
		return CommitOut{}, fmt.Errorf("writing the tree: %w", err)
	}
	if len(merging) == 0 && (parent != nil && parent.TreeHash == tree || parent == nil && len(entries) == 0) {
		return CommitOut{}, errors.New("nothing to commit: the index matches HEAD; stage changes with git_add first")
	}
	files, err := changedPaths(rp, ctx, parent, tree)
	if err != nil {
		return CommitOut{}, err
	}
	c, err := newCommit(rp, tree, parent, msg, merging...)
	if err != nil {
		return CommitOut{}, err
	}
	branch, err := advance(rp, head, parent, c.Hash, gitwrite.SummaryLine(msg), len(merging) > 0)
	if err != nil {
		return CommitOut{}, err
	}
	if len(merging) > 0 {
		endMerge(rp)
	}
	rp.Changed()
	return CommitOut{Hash: c.Hash.String(), Short: c.Hash.String()[:repo.ShortLen], Branch: branch.Short(),
		Summary: gitwrite.SummaryLine(msg), Files: files}, nil
}

// newCommit writes the commit object for tree with parent (nil for a root commit).
func newCommit(rp *repo.Repo, tree plumbing.Hash, parent *object.Commit, msg string, more ...plumbing.Hash) (*object.Commit, error) {
	now := time.Now()
	author, err := gitwrite.Signature(rp, "author", now)
	if err != nil {
		return nil, err
	}
	committer, err := gitwrite.Signature(rp, "committer", now)
	if err != nil {
		return nil, err
	}
	c := &object.Commit{Author: author, Committer: committer, Message: msg, TreeHash: tree}
	if parent != nil {
		c.ParentHashes = append([]plumbing.Hash{parent.Hash}, more...)
	}
	obj := rp.Git.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return nil, err
	}
	if c.Hash, err = rp.Git.Storer.SetEncodedObject(obj); err != nil {
		return nil, fmt.Errorf("writing the commit: %w", err)
	}
	return c, nil
}

// advance moves HEAD's branch (or a detached HEAD) from parent to h, failing if someone else moved it
// meanwhile, and logs the move as git does. It returns the branch that moved ("" when detached).
func advance(rp *repo.Repo, head *plumbing.Reference, parent *object.Commit, h plumbing.Hash, subject string, merge bool) (plumbing.ReferenceName, error) {
	name := plumbing.HEAD
	if head.Type() == plumbing.SymbolicReference {
		name = head.Target()
	}
	var old *plumbing.Reference
	from, logMsg := plumbing.ZeroHash, "commit (initial): "+subject
	if parent != nil {
		old = plumbing.NewHashReference(name, parent.Hash)
		from, logMsg = parent.Hash, "commit: "+subject
		if merge {
			logMsg = "commit (merge): " + subject
		}
	}
	if err := gitwrite.UpdateRef(rp, plumbing.NewHashReference(name, h), old); err != nil {
		return "", err
	}
	// Best effort, like git's own reflog writes: the commit is made and the ref moved either way.
	_ = gitwrite.AppendReflog(rp, name, from, h, logMsg)
	if name == plumbing.HEAD {
		return "", nil
	}
	_ = gitwrite.AppendReflog(rp, plumbing.HEAD, from, h, logMsg)
	return name, nil
}

// changedPaths counts the paths that differ between parent's tree (none for a root commit) and tree, a rename
// of identical content counting once, as git's summary counts it.
func changedPaths(rp *repo.Repo, ctx context.Context, parent *object.Commit, tree plumbing.Hash) (int, error) {
	var from plumbing.Hash
	if parent != nil {
		from = parent.TreeHash
	}
	changes, err := diff.Trees(rp, ctx, from, tree, "")
	return len(changes), err
}
