package gittools

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// BlameArgs are the arguments of git_blame.
type BlameArgs struct {
	RepoPath  string `json:"repo_path,omitempty" jsonschema:"absolute path or file:// URI inside a root; optional when there is exactly one root"`
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
	Line   int    `json:"line"`
	Commit string `json:"commit"`
	Author string `json:"author"`
	Email  string `json:"email"`
	Date   string `json:"date" jsonschema:"author date, YYYY-MM-DD"`
	Text   string `json:"text"`
}

// maxBlameLines caps one answer.
const maxBlameLines = 2000

func (r *Repos) addBlame(s *mcp.Server) {
	scope.AddTool(s, &mcp.Tool{
		Name:        "git_blame",
		Title:       "Git blame",
		Description: "Show which commit last changed each line of a committed file (at revision, default HEAD); limit with start_line/end_line.",
		Annotations: readOnlyTool(),
	}, r.opts.Scope, r.blameTool)
}

func (r *Repos) blameTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in BlameArgs) (*mcp.CallToolResult, BlameOut, error) {
	if in.Path == "" {
		return nil, BlameOut{}, fmt.Errorf("path is required")
	}
	if in.StartLine < 0 || in.EndLine < 0 || in.EndLine > 0 && in.EndLine < in.StartLine {
		return nil, BlameOut{}, fmt.Errorf("invalid line range %d-%d", in.StartLine, in.EndLine)
	}
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, BlameOut{}, err
	}
	defer unlock()
	p, err := rp.repoRel(sc, in.Path)
	if err != nil {
		return nil, BlameOut{}, err
	}
	out, err := rp.blame(p, in)
	if err != nil {
		return nil, BlameOut{}, err
	}
	return textResult(formatBlame(out, in)), out, nil
}

func (rp *repo) blame(p string, in BlameArgs) (BlameOut, error) {
	rev := in.Revision
	if rev == "" {
		rev = "HEAD"
	}
	c, err := rp.commit(rev)
	if err != nil {
		return BlameOut{}, err
	}
	if p == "" {
		return BlameOut{}, fmt.Errorf("path must name a file")
	}
	res, err := git.Blame(c, p)
	if err != nil {
		return BlameOut{}, fmt.Errorf("blaming %s at %s: %w", quotePath(p), rev, err)
	}
	out := BlameOut{Lines: []BlameLine{}, Total: len(res.Lines)}
	start, end := max(in.StartLine, 1), in.EndLine
	if end == 0 || end > len(res.Lines) {
		end = len(res.Lines)
	}
	if end-start+1 > maxBlameLines {
		end, out.Truncated = start+maxBlameLines-1, true
	}
	for i := start; i <= end; i++ {
		l := res.Lines[i-1]
		out.Lines = append(out.Lines, BlameLine{Line: i, Commit: l.Hash.String(), Author: l.AuthorName,
			Email: l.Author, Date: l.Date.Format("2006-01-02"), Text: l.Text})
	}
	return out, nil
}

func formatBlame(out BlameOut, in BlameArgs) string {
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
