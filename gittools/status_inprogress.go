package gittools

// The line git_status adds when a merge, cherry-pick or revert stopped on conflicts, as `git status` says
// "You have unmerged paths" with how to go on.

import (
	"github.com/grove-mcp/grove/gittools/internal/mergecmd"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// inProgressNote names the operation in progress and how to conclude or abort it ("" when none).
func inProgressNote(rp *repo.Repo) string {
	op, err := mergecmd.InProgress(rp)
	if err != nil || op == "" {
		return ""
	}
	switch op {
	case "merge":
		return "\nA merge is in progress: fix the conflicts, git_add the files, then git_commit to conclude (or git_merge with action abort)."
	case "cherry-pick", "revert":
		return "\nA " + op + " is in progress: fix the conflicts, git_add the files, then git_" + map[string]string{"cherry-pick": "cherry_pick", "revert": "revert"}[op] +
			" with action continue (or action abort)."
	}
	return "\nA cherry-pick or revert sequence is in progress: continue or abort it with git_cherry_pick or git_revert."
}
