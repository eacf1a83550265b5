// Package blame owns git_blame's engine: walking a file's history from a
// commit, passing each line to the parent it came from (with linediff's
// line diff), following renames by content similarity, and formatting the
// answer, all within the read and work limits it states.
//
//	out, err := blame.File(rp, ctx, path, in)
//	text := blame.Format(out, in)
package blame

import (
	"context"
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/commitgraph"
	"github.com/grove-mcp/grove/gittools/internal/pathindex"
	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// BlameArgs are the arguments of git_blame.
type BlameArgs struct {
	RepoPath  string `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; with several, the root holding path when path is absolute)"`
	Path      string `json:"path" jsonschema:"file to blame (relative to the worktree, or absolute)"`
	Revision  string `json:"revision,omitempty" jsonschema:"blame the file as of this revision (default HEAD)"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line to show (1-based, default 1)"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line to show (default: the end, at most 2000 lines)"`
}

// BlameOut is the structured result of git_blame.
type BlameOut struct {
	Lines     []BlameLine `json:"lines"`
	Total     int         `json:"total" jsonschema:"lines in the file"`
	Truncated bool        `json:"truncated,omitempty"`
}

// BlameLine is one line and the commit that last changed it.
type BlameLine struct {
	Line     int    `json:"line"`
	Commit   string `json:"commit"`
	OrigLine int    `json:"orig_line" jsonschema:"the line's number in the commit's version of the file"`
	OrigPath string `json:"orig_path,omitempty" jsonschema:"the file's path in the commit, when it differs from path (a rename)"`
	Author   string `json:"author"`
	Email    string `json:"email"`
	Date     string `json:"date" jsonschema:"author date, YYYY-MM-DD"`
	Text     string `json:"text"`
}

// Options are what a blame may ask besides the repository: both make a walk cheaper, and nil means none.
type Options struct {
	Graph *commitgraph.Graph // the commit-graph as grove reads it, with its changed-path Bloom filters
	Index *pathindex.Index   // the changed-paths index, when one is kept for the repository
}

// maxBlameLines caps one answer.
const maxBlameLines = 2000

// File answers git_blame for p: only the lines shown are tracked through history (see blameRange).
func File(rp *repo.Repo, ctx context.Context, p string, in BlameArgs, opts Options) (BlameOut, error) {
	rev := in.Revision
	if rev == "" {
		rev = "HEAD"
	}
	c, err := rp.Commit(rev)
	if err != nil {
		return BlameOut{}, err
	}
	if p == "" {
		return BlameOut{}, fmt.Errorf("path must name a file")
	}
	objects := newBlobReader(rp)
	defer objects.close()
	blob, lines, err := blameFile(rp, objects, c, p)
	if err != nil {
		return BlameOut{}, fmt.Errorf("blaming %s at %s: %w", patchtext.QuotePath(p), rev, err)
	}
	out := BlameOut{Lines: []BlameLine{}, Total: len(lines)}
	start, end := max(in.StartLine, 1), in.EndLine
	if end == 0 || end > len(lines) {
		end = len(lines)
	}
	if end-start+1 > maxBlameLines {
		end, out.Truncated = start+maxBlameLines-1, true
	}
	if start > end {
		return out, nil
	}
	owners, err := blameRange(rp, ctx, opts, objects, c.Hash, p, blob, start-1, end)
	if err == nil {
		err = describeLines(rp, &out, owners, lines, start, p)
	}
	if err != nil {
		return BlameOut{}, fmt.Errorf("blaming %s at %s: %w", patchtext.QuotePath(p), rev, err)
	}
	return out, nil
}

// describeLines appends lines start, start+1, … of the file at p with what they are blamed on (owners, in order).
func describeLines(rp *repo.Repo, out *BlameOut, owners []Owner, lines []string, start int, p string) error {
	for i, o := range owners {
		e, err := rp.CachedCommit(o.Commit)
		if err != nil {
			return err
		}
		a := e.C.Author
		l := BlameLine{Line: start + i, Commit: rp.FullHash(o.Commit), OrigLine: o.Line, Author: a.Name,
			Email: a.Email, Date: a.When.Format("2006-01-02"), Text: strings.TrimSuffix(lines[start+i-1], "\n")}
		if o.Path != p {
			l.OrigPath = o.Path
		}
		out.Lines = append(out.Lines, l)
	}
	return nil
}

// blameFile returns the blob at p in c and its lines.
func blameFile(rp *repo.Repo, objects *blobReader, c *object.Commit, p string) (plumbing.Hash, []string, error) {
	e, err := repo.NewTreeLookup(rp).Find(c.TreeHash, p)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	if !e.Found || !e.Mode.IsFile() {
		return plumbing.ZeroHash, nil, object.ErrFileNotFound
	}
	data, err := objects.blob(e.Hash)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	return e.Hash, patchtext.SplitLines(data), nil
}

func Format(out BlameOut, in BlameArgs) string {
	var b strings.Builder
	for _, l := range out.Lines {
		fmt.Fprintf(&b, "%s (%s %s %d) %s\n", l.Commit[:8], l.Author, l.Date, l.Line, l.Text)
	}
	if len(out.Lines) == 0 {
		b.WriteString("no lines in range\n")
	}
	if out.Truncated {
		last := out.Lines[len(out.Lines)-1].Line
		fmt.Fprintf(&b, "… %d of %d lines shown; pass start_line=%d for the next ones\n", len(out.Lines), out.Total, last+1)
	}
	return b.String()
}
