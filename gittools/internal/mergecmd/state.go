package mergecmd

// The state files of an operation stopped on conflicts.

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// InProgress names the operation stopped on conflicts in rp ("" when none).
func InProgress(rp *repo.Repo) (string, error) {
	for _, s := range []struct{ file, op string }{{"MERGE_HEAD", "merge"}, {"CHERRY_PICK_HEAD", "cherry-pick"},
		{"REVERT_HEAD", "revert"}, {"sequencer/todo", "cherry-pick or revert sequence"}} {
		_, ok, err := gitwrite.ReadState(rp, s.file)
		if err != nil {
			return "", err
		}
		if ok {
			return s.op, nil
		}
	}
	return "", nil
}

// refuseInProgress fails when an operation is stopped on conflicts.
func refuseInProgress(rp *repo.Repo) error {
	op, err := InProgress(rp)
	if err != nil || op == "" {
		return err
	}
	return fmt.Errorf("a %s is in progress: resolve the conflicts and conclude it, or abort it, first", op)
}

// readHashes reads a state file of hashes, one per line (MERGE_HEAD may name several).
func readHashes(rp *repo.Repo, name string) ([]plumbing.Hash, bool, error) {
	data, ok, err := gitwrite.ReadState(rp, name)
	if err != nil || !ok {
		return nil, ok, err
	}
	var out []plumbing.Hash
	for _, f := range strings.Fields(string(data)) {
		if !plumbing.IsHash(f) {
			return nil, true, fmt.Errorf("%s holds %q, not a commit hash", name, f)
		}
		out = append(out, plumbing.NewHash(f))
	}
	return out, true, nil
}

// MergeHeads returns the commits of a merge in progress (MERGE_HEAD) and its message (MERGE_MSG, comment
// lines dropped), for git_commit.
func MergeHeads(rp *repo.Repo) (heads []plumbing.Hash, msg string, err error) {
	heads, ok, err := readHashes(rp, "MERGE_HEAD")
	if err != nil || !ok {
		return nil, "", err
	}
	data, _, err := gitwrite.ReadState(rp, "MERGE_MSG")
	if err != nil {
		return nil, "", err
	}
	return heads, StripComments(string(data)), nil
}

// StripComments drops the lines starting with '#', as git's default commit cleanup does.
func StripComments(msg string) string {
	var keep []string
	for _, l := range strings.Split(msg, "\n") {
		if !strings.HasPrefix(l, "#") {
			keep = append(keep, l)
		}
	}
	return gitwrite.CleanMessage(strings.Join(keep, "\n"))
}

// EndMerge removes a concluded merge's state files.
func EndMerge(rp *repo.Repo) error {
	return gitwrite.RemoveState(rp, "MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "AUTO_MERGE")
}
