package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
)

// diverge finds, for each path, the oldest commit of its history (`git log --format=%H -- p`, oldest first)
// at which git_blame and `git blame --porcelain` disagree, and prints the disagreeing lines there: the
// commit whose diff (or merge) the two tools handle differently is that one or one of its parents.
func diverge(cfg config, dir string, paths []string) error {
	c, err := benchutil.StartRaw(context.Background(), []string{cfg.grove, "--root", dir, "--log-level", "warn"}, benchutil.Legacy, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	for _, p := range paths {
		out, err := runGit(dir, "log", "--reverse", "--format=%H", "HEAD", "--", p)
		if err != nil {
			return err
		}
		found := false
		for _, rev := range strings.Fields(string(out)) {
			want, _, err := gitBlameAt(dir, rev, p)
			if err != nil {
				continue // the path is not a file at rev (a directory, a deletion)
			}
			got, _, err := groveBlameAt(c, dir, rev, p)
			if err != nil {
				return fmt.Errorf("%s at %s: %w", p, rev, err)
			}
			if commitAgree, agree := compare(want, got, p, false); agree == len(want) && len(got) == len(want) {
				continue
			} else {
				fmt.Printf("%s: first divergence at %s (%d of %d lines agree on the commit, %d on everything)\n",
					p, rev, commitAgree, len(want), agree)
			}
			compare(want, got, p, true)
			found = true
			break
		}
		if !found {
			fmt.Printf("%s: no divergence\n", p)
		}
	}
	return nil
}
