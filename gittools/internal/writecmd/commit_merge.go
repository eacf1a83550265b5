package writecmd

// git_commit concluding a merge stopped on conflicts (git_merge): the commit gets MERGE_HEAD's commits as
// further parents and, without a message of its own, MERGE_MSG's (comment lines dropped), and the merge's
// state files go once it is made.

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// pendingMerge reads MERGE_HEAD and MERGE_MSG; no MERGE_HEAD means no merge in progress.
func pendingMerge(rp *repo.Repo) (heads []plumbing.Hash, msg string, err error) {
	data, ok, err := gitwrite.ReadState(rp, "MERGE_HEAD")
	if err != nil || !ok {
		return nil, "", err
	}
	for _, f := range strings.Fields(string(data)) {
		if !plumbing.IsHash(f) {
			return nil, "", fmt.Errorf("MERGE_HEAD holds %q, not a commit hash", f)
		}
		heads = append(heads, plumbing.NewHash(f))
	}
	raw, _, err := gitwrite.ReadState(rp, "MERGE_MSG")
	if err != nil {
		return nil, "", err
	}
	var keep []string
	for _, l := range strings.Split(string(raw), "\n") {
		if !strings.HasPrefix(l, "#") {
			keep = append(keep, l)
		}
	}
	return heads, gitwrite.CleanMessage(strings.Join(keep, "\n")), nil
}

// endMerge removes a concluded merge's state files (best effort: the commit is made).
func endMerge(rp *repo.Repo) {
	_ = gitwrite.RemoveState(rp, "MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "AUTO_MERGE")
}
