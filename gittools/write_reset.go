package gittools

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
)

// ResetArgs are the arguments of git_reset.
type ResetArgs struct {
	RepoPath string   `json:"repo_path,omitempty" jsonschema:"absolute path or file:// URI inside a root; optional when there is exactly one root"`
	Files    []string `json:"files,omitempty" jsonschema:"paths to unstage, relative to the worktree or absolute inside it; a directory unstages everything under it; none unstages everything"`
}

// ResetOut is the result of git_reset.
type ResetOut struct {
	Unstaged   []string `json:"unstaged,omitempty" jsonschema:"paths whose index entry went back to HEAD's"`
	StagedOnly []string `json:"staged_only,omitempty" jsonschema:"unstaged paths whose staged content differed from the worktree, with the blob that keeps it"`
}

// reset sets index entries back to HEAD's. It only writes .git/index: worktree files keep every change, which
// is why it does not ask the user to confirm. A staged version that differs from the worktree leaves the index
// but not the repository (its blob stays), and the result names it with its blob hash.
func (r *Repos) reset(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in ResetArgs) (*mcp.CallToolResult, ResetOut, error) {
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, ResetOut{}, err
	}
	defer unlock()
	rels, err := rp.worktreePaths(sc, in.Files)
	if err != nil {
		return nil, ResetOut{}, err
	}
	if len(rels) == 0 {
		rels = []string{"."}
	}
	head, err := rp.headCommit()
	if err != nil {
		return nil, ResetOut{}, fmt.Errorf("reading HEAD: %w", err)
	}
	headFiles, err := rp.flatTree(ctx, head)
	if err != nil {
		return nil, ResetOut{}, fmt.Errorf("reading HEAD's tree: %w", err)
	}
	ix, err := rp.loadIndex()
	if err != nil {
		return nil, ResetOut{}, err
	}
	defer ix.close()
	if err := checkPathspecs(rels, ix.all(), headFiles); err != nil {
		return nil, ResetOut{}, err
	}
	prev := ix.byName // replaceAll leaves this map alone
	unstaged := resetEntries(ix, headFiles, rels)
	if len(unstaged) == 0 {
		return textResult("Nothing to unstage: the index already matches HEAD for these paths."), ResetOut{}, nil
	}
	out := ResetOut{Unstaged: unstaged, StagedOnly: rp.stagedOnly(ctx, prev, headFiles, unstaged)}
	if err := ix.save(); err != nil {
		return nil, ResetOut{}, err
	}
	rp.changed()
	text := "Unstaged; the worktree is unchanged." + listText("unstaged", unstaged)
	if len(out.StagedOnly) > 0 {
		text += "\nThe staged versions of these files differed from the worktree; they are no longer in the index " +
			"but stay in the object database (git show <blob> or git fsck --lost-found recovers them until gc):" +
			listText("staged-only versions", out.StagedOnly)
	}
	return textResult(text), out, nil
}

// stagedOnly lists, as "path (blob <hash>)", the unstaged paths whose staged content differed from both HEAD
// and the worktree: the one thing a reset takes out of the index that exists nowhere else in the worktree.
func (rp *repo) stagedOnly(ctx context.Context, prev map[string][]*index.Entry, head map[string]blobEntry, unstaged []string) []string {
	wt, err := rp.openWorktree()
	if err != nil {
		return nil
	}
	defer wt.Close()
	var out []string
	for _, name := range unstaged {
		var e *index.Entry
		for _, pe := range prev[name] {
			if pe.Stage == stageMerged {
				e = pe
			}
		}
		if h, ok := head[name]; e == nil || ok && h.Hash == e.Hash || e.Mode == filemode.Submodule {
			continue
		}
		if h, _, err := blobHash(ctx, wt, filepath.FromSlash(name)); err == nil && h == e.Hash {
			continue
		}
		out = append(out, fmt.Sprintf("%s (blob %s)", name, e.Hash.String()[:shortLen]))
	}
	return out
}

// checkPathspecs refuses a path that names nothing in the index or in HEAD.
func checkPathspecs(rels []string, entries []*index.Entry, head map[string]blobEntry) error {
	for _, rel := range rels {
		hit := slices.ContainsFunc(entries, func(e *index.Entry) bool { return under(rel, e.Name) })
		for name := range head {
			if hit {
				break
			}
			hit = under(rel, name)
		}
		if !hit {
			return fmt.Errorf("pathspec %q did not match any file known to git", rel)
		}
	}
	return nil
}

// resetEntries rewrites the index entries under rels to HEAD's and returns the paths that changed.
func resetEntries(ix *indexFile, head map[string]blobEntry, rels []string) []string {
	selected := func(name string) bool {
		return slices.ContainsFunc(rels, func(rel string) bool { return under(rel, name) })
	}
	old := make(map[string]*index.Entry)
	conflicted := make(map[string]bool)
	var kept []*index.Entry
	for _, e := range ix.all() {
		switch {
		case !selected(e.Name):
			kept = append(kept, e)
		case e.Stage != stageMerged:
			conflicted[e.Name] = true
		default:
			old[e.Name] = e
		}
	}
	var changed []string
	for name, e := range old {
		if h, ok := head[name]; !ok || h.Hash != e.Hash || h.Mode != e.Mode || conflicted[name] {
			changed = append(changed, name)
		}
		if h, ok := head[name]; ok && h.Hash == e.Hash && h.Mode == e.Mode {
			kept = append(kept, e) // keep the stat data: the entry is what HEAD has
		}
	}
	for name, h := range head {
		if !selected(name) {
			continue
		}
		if e, ok := old[name]; ok && e.Hash == h.Hash && e.Mode == h.Mode {
			continue
		}
		if _, ok := old[name]; !ok {
			changed = append(changed, name)
		}
		// Size 0 tells git the stat data was never read: it compares the content instead of trusting it.
		kept = append(kept, &index.Entry{Name: name, Hash: h.Hash, Mode: h.Mode})
	}
	for name := range conflicted {
		if _, ok := old[name]; !ok && !slices.Contains(changed, name) {
			changed = append(changed, name)
		}
	}
	ix.replaceAll(kept)
	slices.Sort(changed)
	return slices.Compact(changed)
}
