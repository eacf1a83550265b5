package gittools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
)

// CommitArgs are the arguments of git_commit.
type CommitArgs struct {
	RepoPath string `json:"repo_path,omitempty" jsonschema:"absolute path or file:// URI inside a root; optional when there is exactly one root"`
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

// shortLen is the length of the short hashes the write tools report.
const shortLen = 7

func (r *Repos) commitTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in CommitArgs) (*mcp.CallToolResult, CommitOut, error) {
	msg := cleanMessage(in.Message)
	if msg == "" {
		return nil, CommitOut{}, errors.New("empty commit message: give a message describing the change")
	}
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, CommitOut{}, err
	}
	defer unlock()
	out, err := rp.commitIndex(ctx, msg)
	if err != nil {
		return nil, CommitOut{}, err
	}
	where := out.Branch
	if where == "" {
		where = "detached HEAD"
	}
	text := fmt.Sprintf("[%s %s] %s\n%d file(s) changed", where, out.Short, out.Summary, out.Files)
	return textResult(text), out, nil
}

// commitIndex records the index as a commit on HEAD's branch (or on a detached HEAD).
func (rp *repo) commitIndex(ctx context.Context, msg string) (CommitOut, error) {
	ix, err := rp.loadIndex()
	if err != nil {
		return CommitOut{}, err
	}
	defer ix.close()
	if u := ix.unmerged(); len(u) > 0 {
		return CommitOut{}, fmt.Errorf("cannot commit: unmerged paths (resolve them and git_add them first): %s", strings.Join(u, ", "))
	}
	head, err := rp.git.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return CommitOut{}, fmt.Errorf("reading HEAD: %w", err)
	}
	parent, err := rp.headCommit()
	if err != nil {
		return CommitOut{}, fmt.Errorf("reading HEAD's commit: %w", err)
	}
	entries := ix.all()
	tree, err := rp.writeTree(entries)
	if err != nil {
		return CommitOut{}, fmt.Errorf("writing the tree: %w", err)
	}
	if parent != nil && parent.TreeHash == tree || parent == nil && len(entries) == 0 {
		return CommitOut{}, errors.New("nothing to commit: the index matches HEAD; stage changes with git_add first")
	}
	files, err := rp.changedPaths(ctx, parent, tree)
	if err != nil {
		return CommitOut{}, err
	}
	c, err := rp.newCommit(tree, parent, msg)
	if err != nil {
		return CommitOut{}, err
	}
	branch, err := rp.advance(head, parent, c.Hash, summaryLine(msg))
	if err != nil {
		return CommitOut{}, err
	}
	rp.changed()
	return CommitOut{Hash: c.Hash.String(), Short: c.Hash.String()[:shortLen], Branch: branch.Short(),
		Summary: summaryLine(msg), Files: files}, nil
}

// newCommit writes the commit object for tree with parent (nil for a root commit).
func (rp *repo) newCommit(tree plumbing.Hash, parent *object.Commit, msg string) (*object.Commit, error) {
	now := time.Now()
	author, err := rp.signature("author", now)
	if err != nil {
		return nil, err
	}
	committer, err := rp.signature("committer", now)
	if err != nil {
		return nil, err
	}
	c := &object.Commit{Author: author, Committer: committer, Message: msg, TreeHash: tree}
	if parent != nil {
		c.ParentHashes = []plumbing.Hash{parent.Hash}
	}
	obj := rp.git.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return nil, err
	}
	if c.Hash, err = rp.git.Storer.SetEncodedObject(obj); err != nil {
		return nil, fmt.Errorf("writing the commit: %w", err)
	}
	return c, nil
}

// advance moves HEAD's branch (or a detached HEAD) from parent to h, failing if someone else moved it
// meanwhile, and logs the move as git does. It returns the branch that moved ("" when detached).
func (rp *repo) advance(head *plumbing.Reference, parent *object.Commit, h plumbing.Hash, subject string) (plumbing.ReferenceName, error) {
	name := plumbing.HEAD
	if head.Type() == plumbing.SymbolicReference {
		name = head.Target()
	}
	var old *plumbing.Reference
	from, logMsg := plumbing.ZeroHash, "commit (initial): "+subject
	if parent != nil {
		old = plumbing.NewHashReference(name, parent.Hash)
		from, logMsg = parent.Hash, "commit: "+subject
	}
	if err := rp.updateRef(plumbing.NewHashReference(name, h), old); err != nil {
		return "", err
	}
	// Best effort, like git's own reflog writes: the commit is made and the ref moved either way.
	_ = rp.appendReflog(name, from, h, logMsg)
	if name == plumbing.HEAD {
		return "", nil
	}
	_ = rp.appendReflog(plumbing.HEAD, from, h, logMsg)
	return name, nil
}

// changedPaths counts the paths that differ between parent's tree (none for a root commit) and tree, a rename
// of identical content counting once, as git's summary counts it.
func (rp *repo) changedPaths(ctx context.Context, parent *object.Commit, tree plumbing.Hash) (int, error) {
	var from plumbing.Hash
	if parent != nil {
		from = parent.TreeHash
	}
	changes, err := rp.diffTrees(ctx, from, tree, "")
	return len(changes), err
}
