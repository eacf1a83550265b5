package mergecmd

// Writing the commits and moving HEAD's branch.

import (
	"fmt"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// writeCommit stores a commit of tree with parents; author nil means the user, now.
func writeCommit(rp *repo.Repo, tree plumbing.Hash, parents []plumbing.Hash, msg string, author *object.Signature) (plumbing.Hash, error) {
	now := time.Now()
	committer, err := gitwrite.Signature(rp, "committer", now)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if author == nil {
		a, err := gitwrite.Signature(rp, "author", now)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		author = &a
	}
	c := &object.Commit{Author: *author, Committer: committer, Message: msg, TreeHash: tree, ParentHashes: parents}
	obj := rp.Git.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	h, err := rp.Git.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("writing the commit: %w", err)
	}
	return h, nil
}

// WriteCommit stores a commit by the user, now (stash commits).
func WriteCommit(rp *repo.Repo, tree plumbing.Hash, parents []plumbing.Hash, msg string) (plumbing.Hash, error) {
	return writeCommit(rp, tree, parents, msg, nil)
}

// moveHead moves HEAD's branch (or a detached HEAD) from old to h, failing if it moved meanwhile, and logs
// the move in both reflogs as git does.
func moveHead(rp *repo.Repo, head *plumbing.Reference, old, h plumbing.Hash, logMsg string) error {
	name := plumbing.HEAD
	if head.Type() == plumbing.SymbolicReference {
		name = head.Target()
	}
	if err := gitwrite.UpdateRef(rp, plumbing.NewHashReference(name, h), plumbing.NewHashReference(name, old)); err != nil {
		return err
	}
	_ = gitwrite.AppendReflog(rp, name, old, h, logMsg) // best effort, as git's own reflog writes
	if name != plumbing.HEAD {
		_ = gitwrite.AppendReflog(rp, plumbing.HEAD, old, h, logMsg)
	}
	rp.Changed()
	return nil
}

// headRef reads HEAD and its commit; a merge needs a commit to merge into.
func headRef(rp *repo.Repo) (*plumbing.Reference, *object.Commit, error) {
	head, err := rp.Git.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return nil, nil, fmt.Errorf("reading HEAD: %w", err)
	}
	c, err := rp.HeadCommit()
	if err != nil {
		return nil, nil, fmt.Errorf("reading HEAD's commit: %w", err)
	}
	if c == nil {
		return nil, nil, fmt.Errorf("HEAD has no commit yet: commit something first")
	}
	return head, c, nil
}
