// Package mergecmd owns the history tools built on the merge engine (package merge): git_merge,
// git_cherry_pick and git_revert. Each plans the whole change first (merge result, worktree moves, refusals
// for local changes in the way), then writes the worktree, the index (conflict stages 1 to 3 as git records
// them) and the refs, and leaves the state files git leaves (MERGE_HEAD, MERGE_MSG, MERGE_MODE, ORIG_HEAD,
// CHERRY_PICK_HEAD, REVERT_HEAD, the sequencer directory), so that the git program and grove can each finish
// or abort what the other started.
//
//	out, err := mergecmd.Merge(rp, ctx, mergecmd.MergeArgs{Revision: "topic"})
package mergecmd

// MergeArgs are the arguments of git_merge.
type MergeArgs struct {
	RepoPath                string `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; required when there are several)"`
	Revision                string `json:"revision,omitempty" jsonschema:"the branch, tag or commit to merge into the current branch (required unless action is abort)"`
	FF                      string `json:"ff,omitempty" jsonschema:"fast-forward: allowed (default: move the branch when HEAD is an ancestor), only (refuse anything else), never (always make a merge commit)" enum:"allowed,only,never"`
	Message                 string `json:"message,omitempty" jsonschema:"the merge commit's message (default: git's, e.g. Merge branch 'topic')"`
	ConflictStyle           string `json:"conflict_style,omitempty" jsonschema:"conflict markers: merge (default: ours and theirs) or diff3 (also the base)" enum:"merge,diff3"`
	AllowUnrelatedHistories bool   `json:"allow_unrelated_histories,omitempty" jsonschema:"merge even when the histories have no common commit"`
	Action                  string `json:"action,omitempty" jsonschema:"merge (default) or abort (undo a merge stopped on conflicts, restoring the state before it)" enum:"merge,abort"`
}

// ConflictOut is one conflicted path.
type ConflictOut struct {
	Path string `json:"path" jsonschema:"the conflicted path, relative to the worktree"`
	Kind string `json:"kind" jsonschema:"content, add/add, modify/delete, rename/rename, file/directory, binary or file location"`
}

// Out is the result of git_merge, git_cherry_pick and git_revert.
type Out struct {
	Result    string        `json:"result" jsonschema:"merged, fast-forward, up-to-date, conflicts or aborted"`
	Commit    string        `json:"commit,omitempty" jsonschema:"the new HEAD, when a commit was made"`
	Conflicts []ConflictOut `json:"conflicts,omitempty" jsonschema:"each conflicted path and its kind (result conflicts)"`
	Updated   []string      `json:"updated,omitempty" jsonschema:"worktree files written"`
	Removed   []string      `json:"removed,omitempty" jsonschema:"worktree files deleted"`
	Picked    []string      `json:"picked,omitempty" jsonschema:"cherry-pick and revert: the new commits made, in order"`
	Remaining []string      `json:"remaining,omitempty" jsonschema:"cherry-pick and revert: revisions still to apply after the conflicts are resolved (action continue)"`
}

// Results of Out.Result.
const (
	ResultMerged      = "merged"
	ResultFastForward = "fast-forward"
	ResultUpToDate    = "up-to-date"
	ResultConflicts   = "conflicts"
	ResultAborted     = "aborted"
)
