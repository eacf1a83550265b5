package stashcmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"
	"github.com/grove-mcp/grove/gittools/internal/mergecmd"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/gittools/internal/status"
)

var nowFunc = time.Now

// Args are the arguments of git_stash.
type Args struct {
	RepoPath         string   `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; required when there are several)"`
	Action           string   `json:"action,omitempty" jsonschema:"push (default: save local changes and reset them), list, show (the patch of a stash), apply, pop (apply, then drop unless it conflicts) or drop" enum:"push,list,show,apply,pop,drop"`
	Message          string   `json:"message,omitempty" jsonschema:"push: the stash's message (default: WIP on <branch>: <commit>)"`
	IncludeUntracked bool     `json:"include_untracked,omitempty" jsonschema:"push: also stash untracked (not ignored) files, and remove them"`
	Paths            []string `json:"paths,omitempty" jsonschema:"push: stash only these files or directories (default: every changed file)"`
	Index            int      `json:"index,omitempty" jsonschema:"show, apply, pop, drop: which stash, n of stash@{n} (default 0, the newest)"`
}

// Entry is one stash in a list.
type Entry struct {
	Name    string `json:"name" jsonschema:"stash@{n}"`
	Commit  string `json:"commit" jsonschema:"the stash commit"`
	Message string `json:"message"`
}

// Out is the result of git_stash.
type Out struct {
	Action    string                 `json:"action"`
	Stash     string                 `json:"stash,omitempty" jsonschema:"the stash made, applied or dropped (its commit)"`
	Entries   []Entry                `json:"entries,omitempty" jsonschema:"list: the stashes, newest first"`
	Patch     string                 `json:"patch,omitempty" jsonschema:"show: the stash's changes as a patch"`
	Saved     []string               `json:"saved,omitempty" jsonschema:"push: the paths stashed (and reset in the worktree)"`
	Conflicts []mergecmd.ConflictOut `json:"conflicts,omitempty" jsonschema:"apply, pop: conflicted paths (the stash is kept)"`
	Dropped   bool                   `json:"dropped,omitempty"`
	Nothing   bool                   `json:"nothing,omitempty" jsonschema:"push: there were no local changes to save"`
}

// Run runs git_stash; rels are the paths argument made relative to the worktree.
func Run(rp *repo.Repo, ctx context.Context, in Args, rels []string) (Out, error) {
	out := Out{Action: in.Action}
	if out.Action == "" {
		out.Action = "push"
	}
	if err := refuseBusy(rp, out.Action); err != nil {
		return out, err
	}
	switch out.Action {
	case "push":
		return out, save(rp, ctx, in, rels, &out)
	case "list":
		return out, list(rp, &out)
	case "show":
		return out, show(rp, ctx, in.Index, &out)
	case "apply", "pop":
		return out, apply(rp, ctx, in.Index, out.Action == "pop", &out)
	case "drop":
		e, err := drop(rp, in.Index)
		out.Stash, out.Dropped = e.new.String(), err == nil
		return out, err
	}
	return out, fmt.Errorf("unknown action %q", in.Action)
}

// refuseBusy refuses changing stashes or the worktree while a merge, cherry-pick or revert is stopped.
func refuseBusy(rp *repo.Repo, action string) error {
	if action == "list" || action == "show" {
		return nil
	}
	op, err := mergecmd.InProgress(rp)
	if err != nil || op == "" {
		return err
	}
	return fmt.Errorf("a %s is in progress: conclude or abort it before git_stash %s", op, action)
}

func list(rp *repo.Repo, out *Out) error {
	es, err := readLog(rp)
	if err != nil {
		return err
	}
	for n := range es {
		e := es[len(es)-1-n]
		out.Entries = append(out.Entries, Entry{Name: fmt.Sprintf("stash@{%d}", n), Commit: e.new.String(), Message: e.msg})
	}
	return nil
}

// stashCommit reads stash@{n}'s commit and checks its shape (two or three parents).
func stashCommit(rp *repo.Repo, n int) (*object.Commit, error) {
	es, err := readLog(rp)
	if err != nil {
		return nil, err
	}
	i, err := pick(es, n)
	if err != nil {
		return nil, err
	}
	c, err := rp.Git.CommitObject(es[i].new)
	if err != nil {
		return nil, fmt.Errorf("reading stash@{%d}: %w", n, err)
	}
	if c.NumParents() < 2 || c.NumParents() > 3 {
		return nil, fmt.Errorf("stash@{%d} (%s) is not a stash commit: it has %d parents", n, c.Hash.String()[:7], c.NumParents())
	}
	return c, nil
}

// branchLabel is HEAD's branch ("(no branch)" when detached) and "<branch>: <short> <subject>", as git's
// stash messages read.
func branchLabel(rp *repo.Repo, hc *object.Commit) (branch, label string) {
	branch = "(no branch)"
	if head, err := rp.Git.Storer.Reference(plumbing.HEAD); err == nil && head.Type() == plumbing.SymbolicReference {
		branch = head.Target().Short()
	}
	return branch, fmt.Sprintf("%s: %s %s", branch, hc.Hash.String()[:7], repo.FirstLineOf(hc.Message))
}

// inPaths reports whether p is one of rels or below one (every path when rels is empty).
func inPaths(p string, rels []string) bool {
	if len(rels) == 0 {
		return true
	}
	return slices.ContainsFunc(rels, func(r string) bool { return r == "" || r == "." || p == r || strings.HasPrefix(p, r+"/") })
}

// untracked lists the untracked, not ignored files under rels (directories git status collapses are walked).
func untracked(rp *repo.Repo, ctx context.Context, rels []string) ([]string, error) {
	st, err := status.Of(rp, ctx, nil, nil)
	if err != nil {
		return nil, err
	}
	if st.Truncated {
		return nil, errors.New("too many changed and untracked files to stash untracked files safely; stash them in smaller groups (paths)")
	}
	var out []string
	for _, e := range st.Entries {
		if e.Index != "?" {
			continue
		}
		if !strings.HasSuffix(e.Path, "/") {
			if inPaths(e.Path, rels) {
				out = append(out, e.Path)
			}
			continue
		}
		if err := walkUntracked(rp, strings.TrimSuffix(e.Path, "/"), rels, &out); err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	return out, nil
}

// maxUntracked bounds the untracked files one push stashes.
const maxUntracked = 100_000

// walkUntracked adds the files under the untracked directory dir (nested repositories skipped, as git does).
func walkUntracked(rp *repo.Repo, dir string, rels []string, out *[]string) error {
	wt, err := gitwrite.OpenWorktree(rp)
	if err != nil {
		return err
	}
	defer wt.Close()
	return fs.WalkDir(wt.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if _, err := fs.Stat(wt.FS(), p+"/.git"); err == nil {
				return fs.SkipDir
			}
			return nil
		}
		if len(*out) >= maxUntracked {
			return fmt.Errorf("more than %d untracked files: stash them in smaller groups (paths)", maxUntracked)
		}
		if inPaths(p, rels) {
			*out = append(*out, p)
		}
		return nil
	})
}
