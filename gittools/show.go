package gittools

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// ShowArgs are the arguments of git_show.
type ShowArgs struct {
	RepoPath string `json:"repo_path,omitempty" jsonschema:"absolute path or file:// URI inside a root; optional when there is exactly one root"`
	Revision string `json:"revision" jsonschema:"commit, branch, tag or expression such as HEAD~2"`
	Path     string `json:"path,omitempty" jsonschema:"show this file's content (or directory's listing) at the revision instead of the commit"`
}

// ShowOut is the structured result of git_show.
type ShowOut struct {
	Commit    CommitInfo `json:"commit"`
	Message   string     `json:"message,omitempty" jsonschema:"full commit message"`
	Files     []DiffFile `json:"files,omitempty" jsonschema:"files changed against the first parent"`
	Patch     string     `json:"patch,omitempty"`
	Content   string     `json:"content,omitempty" jsonschema:"with path: the file's text, or the directory listing"`
	Binary    bool       `json:"binary,omitempty" jsonschema:"with path: the file is binary; content omitted"`
	Size      int64      `json:"size,omitempty" jsonschema:"with path: the file's size in bytes"`
	TooLarge  bool       `json:"too_large,omitempty" jsonschema:"with path: the file is over the server's --max-file-size; content omitted"`
	Truncated bool       `json:"truncated,omitempty"`
}

func (r *Repos) addShow(s *mcp.Server) {
	scope.AddTool(s, &mcp.Tool{
		Name:  "git_show",
		Title: "Git show",
		Description: "Show a commit: header, message and patch against its first parent (a root commit against the " +
			"empty tree). With path, show that file's content at the revision instead (binary files are described, not dumped).",
		Annotations: readOnlyTool(),
	}, r.opts.Scope, r.showTool)
}

func (r *Repos) showTool(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in ShowArgs) (*mcp.CallToolResult, ShowOut, error) {
	if in.Revision == "" {
		return nil, ShowOut{}, fmt.Errorf("revision is required")
	}
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, ShowOut{}, err
	}
	defer unlock()
	c, err := rp.commit(in.Revision)
	if err != nil {
		return nil, ShowOut{}, err
	}
	if in.Path != "" {
		p, err := rp.repoRel(sc, in.Path)
		if err != nil {
			return nil, ShowOut{}, err
		}
		out, text, err := rp.showFile(c, p, in.Path)
		return textResult(text), out, err
	}
	out, text, err := rp.showCommit(ctx, c)
	if err != nil {
		return nil, ShowOut{}, err
	}
	return textResult(text), out, nil
}

// showCommit renders c like `git show` (default format), with the patch against its first parent.
func (rp *repo) showCommit(ctx context.Context, c *object.Commit) (ShowOut, string, error) {
	out := ShowOut{Commit: commitInfo(c), Message: c.Message}
	var parent plumbing.Hash
	if len(c.ParentHashes) > 0 {
		p, err := rp.git.CommitObject(c.ParentHashes[0])
		if err != nil {
			return out, "", err
		}
		parent = p.TreeHash
	}
	changes, err := rp.diffTrees(ctx, parent, c.TreeHash, "")
	if err != nil {
		return out, "", err
	}
	d, patch, err := rp.render(ctx, changes, defaultContext, false)
	if err != nil {
		return out, "", err
	}
	out.Files, out.Patch, out.Truncated = d.Files, patch, d.Truncated
	header := commitHeader(c)
	if patch != "" {
		header += "\n" + patch
	}
	return out, header, nil
}

// gitDate is git's default date format.
const gitDate = "Mon Jan 2 15:04:05 2006 -0700"

// commitHeader is the commit part of `git show`/`git log` medium format.
func commitHeader(c *object.Commit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "commit %s\n", c.Hash)
	if len(c.ParentHashes) > 1 {
		b.WriteString("Merge:")
		for _, p := range c.ParentHashes {
			b.WriteString(" " + p.String()[:7])
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "Author: %s <%s>\n", c.Author.Name, c.Author.Email)
	fmt.Fprintf(&b, "Date:   %s\n\n", c.Author.When.Format(gitDate))
	for _, line := range strings.Split(strings.TrimRight(c.Message, "\n"), "\n") {
		b.WriteString("    " + line + "\n")
	}
	return b.String()
}

// maxShowFile caps the content git_show returns for a file; only that much of the blob is read.
const maxShowFile = 100 << 10

// showFile shows path p (asked for as arg) at commit c. The blob's size comes from its header: over the read
// limit (Options.MaxReadBytes) it is described, not read; otherwise at most maxShowFile bytes of it are read.
func (rp *repo) showFile(c *object.Commit, p, arg string) (ShowOut, string, error) {
	out := ShowOut{Commit: commitInfo(c)}
	if p == "" {
		return rp.showDir(out, c.TreeHash, "")
	}
	hit, err := newTreeLookup(rp).find(c.TreeHash, p)
	if err != nil {
		return out, "", rp.noted(err)
	}
	if !hit.found {
		return out, "", fmt.Errorf("path %q does not exist in %s", arg, c.Hash.String()[:7])
	}
	short := c.Hash.String()[:7]
	switch hit.mode {
	case filemode.Dir:
		return rp.showDir(out, hit.hash, p)
	case filemode.Submodule:
		return out, fmt.Sprintf("%s at %s is a submodule at commit %s\n", quotePath(p), short, hit.hash), nil
	}
	o, err := rp.git.Storer.EncodedObject(plumbing.BlobObject, hit.hash)
	if err != nil {
		return out, "", rp.noted(err)
	}
	out.Size = o.Size()
	if out.Size > rp.maxRead {
		out.TooLarge = true
		return out, fmt.Sprintf("%s at %s: %s\n", quotePath(p), short, &tooLarge{size: out.Size, limit: rp.maxRead}), nil
	}
	data, err := readPrefix(o, maxShowFile)
	if err != nil {
		return out, "", err
	}
	switch {
	case isBinary(data):
		out.Binary = true
		return out, fmt.Sprintf("%s at %s is a binary file (%d bytes); its content is not shown\n", quotePath(p), short, out.Size), nil
	case out.Size > maxShowFile:
		out.Content, out.Truncated = string(data), true
		return out, out.Content + fmt.Sprintf("\n… cut at %d KB of %d bytes; read the file with a range-capable tool for the rest\n", maxShowFile>>10, out.Size), nil
	}
	out.Content = string(data)
	return out, out.Content, nil
}

// showDir lists a tree like `git show rev:dir`.
func (rp *repo) showDir(out ShowOut, h plumbing.Hash, p string) (ShowOut, string, error) {
	es, err := rp.treeEntries(h)
	if err != nil {
		return out, "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tree %s:%s\n\n", out.Commit.Hash[:7], p)
	for _, e := range es {
		name := e.Name
		if e.Mode == 0o040000 {
			name += "/"
		}
		b.WriteString(quotePath(name) + "\n")
	}
	out.Content = b.String()
	return out, out.Content, nil
}
