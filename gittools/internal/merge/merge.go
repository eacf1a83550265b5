// Package merge owns grove's three-way merge: the merge bases of two commits (several in a criss-cross
// history, merged first into a virtual base), a tree-level merge that follows renames on either side, and a
// line-level merge of text files that writes conflict markers as git does. It reads and writes objects only
// (through [Store]); putting the result into an index and a worktree is the caller's job.
//
//	st := &merge.Store{S: rp.Git.Storer}
//	res, err := merge.Commits(ctx, st, head, theirs, merge.Options{Labels: merge.Labels{Ours: "HEAD", Theirs: "topic"}})
//	// res.Tree is the merged tree (conflicted files with markers), res.Conflicts the index stages of each conflict
//
// What it merges follows git's documented behaviour (git-merge(1), git-merge-file(1), gitformat-index(5)) and is
// checked against the git program in tests and in bench/mergereplay.sh; it is our own code.
package merge

import (
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Kind names a conflict as git's messages do.
type Kind string

const (
	KindContent       Kind = "content"
	KindAddAdd        Kind = "add/add"
	KindModifyDelete  Kind = "modify/delete"
	KindRenameRename  Kind = "rename/rename"
	KindFileDirectory Kind = "file/directory"
	KindBinary        Kind = "binary"
)

// Entry is a file, symlink or submodule in a tree; the zero Entry is "no file here".
type Entry struct {
	Hash plumbing.Hash
	Mode filemode.FileMode
}

// Present reports whether e is a file.
func (e Entry) Present() bool { return e.Mode != filemode.Empty }

// Conflict is one path the merge could not settle. Stages are its index entries 1 (base), 2 (ours) and 3
// (theirs), each absent when that version has no file there; the worktree gets the path's entry in the
// result tree (the file with conflict markers, or the surviving side).
type Conflict struct {
	Path    string
	Kind    Kind
	Stages  [3]Entry
	Message string
}

// Options tune a merge. The zero value merges with git's defaults: rename detection at 50% similarity,
// conflicts in the "merge" style.
type Options struct {
	Labels          Labels
	Style           Style
	RenameThreshold float64 // 0: 0.5
	NoRenames       bool
}

// Result is a merge's outcome.
type Result struct {
	Tree      plumbing.Hash // the merged tree; conflicted paths hold what the worktree gets
	Conflicts []Conflict    // sorted by path
	Bases     []plumbing.Hash
	// Changed holds every path at which Tree may differ from the ours tree: its entry in Tree, or the zero
	// Entry when Tree has no file there. Every other file of Tree is ours' as it is, so a caller holding
	// ours' files gets Tree's without reading it. Nil when unknown.
	Changed map[string]Entry
}

// Clean reports whether the merge had no conflict.
func (r *Result) Clean() bool { return len(r.Conflicts) == 0 }
