package diff

import (
	"context"
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ShowArgs are the arguments of git_show.
type ShowArgs struct {
	RepoPath string `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; with several, the root holding path when path is absolute)"`
	Revision string `json:"revision" jsonschema:"commit, branch, tag or expression such as HEAD~2"`
	Path     string `json:"path,omitempty" jsonschema:"a file (relative to the worktree, or absolute) whose content, or directory whose listing, to show at the revision (default: show the commit itself)"`
}

// ShowOut is the structured result of git_show.
type ShowOut struct {
	Commit    repo.CommitInfo `json:"commit"`
	Message   string          `json:"message,omitempty" jsonschema:"full commit message"`
	Files     []DiffFile      `json:"files,omitempty" jsonschema:"files changed against the first parent"`
	Patch     string          `json:"patch,omitempty"`
	Content   string          `json:"content,omitempty" jsonschema:"with path: the file's text, or the directory listing"`
	Binary    bool            `json:"binary,omitempty" jsonschema:"with path: the file is binary; content omitted"`
	Size      int64           `json:"size,omitempty" jsonschema:"with path: the file's size in bytes"`
	TooLarge  bool            `json:"too_large,omitempty" jsonschema:"with path: the file is over the server's --max-file-size; content omitted"`
	Truncated bool            `json:"truncated,omitempty"`
}

// ShowCommit renders c like `git show` (default format), with the patch against its first parent.
func ShowCommit(rp *repo.Repo, ctx context.Context, c *object.Commit) (ShowOut, string, error) {
	out := ShowOut{Commit: rp.CommitInfo(c), Message: c.Message}
	var parent plumbing.Hash
	if len(c.ParentHashes) > 0 {
		p, err := rp.Git.CommitObject(c.ParentHashes[0])
		if err != nil {
			return out, "", err
		}
		parent = p.TreeHash
	}
	changes, err := Trees(rp, ctx, parent, c.TreeHash, "")
	if err != nil {
		return out, "", err
	}
	d, patch, err := Render(rp, ctx, changes, DefaultContext, false)
	if err != nil {
		return out, "", err
	}
	out.Files, out.Patch, out.Truncated = d.Files, patch, d.Truncated
	header := commitHeader(c, rp.FullHash(c.Hash), readMailmap(rp))
	if patch != "" {
		header += "\n" + patch
	}
	return out, header, nil
}

// gitDate is git's default date format.
const gitDate = "Mon Jan 2 15:04:05 2006 -0700"

// CommitHeader is the commit part of `git show`/`git log` medium format.
func CommitHeader(c *object.Commit) string { return commitHeader(c, c.Hash.String(), nil) }

// CommitHeaderIn is CommitHeader with the commit's whole name in rp (see repo.FullHash: 64 digits in a SHA-256
// repository).
func CommitHeaderIn(rp *repo.Repo, c *object.Commit) string {
	return commitHeader(c, rp.FullHash(c.Hash), nil)
}

// commitHeader is CommitHeader with the commit's whole name (see repo.FullHash) and the author mapped through
// mm (nil: as recorded).
func commitHeader(c *object.Commit, full string, mm *mailmap) string {
	name, email := c.Author.Name, c.Author.Email
	if mm != nil {
		name, email = mm.apply(name, email)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "commit %s\n", full)
	if len(c.ParentHashes) > 1 {
		b.WriteString("Merge:")
		for _, p := range c.ParentHashes {
			b.WriteString(" " + p.String()[:7])
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "Author: %s <%s>\n", name, email)
	fmt.Fprintf(&b, "Date:   %s\n\n", c.Author.When.Format(gitDate))
	// git writes each line of the message indented and without its trailing white space.
	for _, line := range strings.Split(strings.TrimRight(c.Message, "\n"), "\n") {
		b.WriteString("    " + expandTabs(strings.TrimRight(line, " \t\r\v\f")) + "\n")
	}
	return b.String()
}

// expandTabs replaces tabs by spaces to the next multiple of 8 columns, as git's medium format shows a
// message (--expand-tabs), counting columns from the message's start.
func expandTabs(line string) string {
	if !strings.Contains(line, "\t") {
		return line
	}
	var b strings.Builder
	col := 0
	for _, r := range line {
		if r == '\t' {
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// maxShowFile caps the content git_show returns for a file; only that much of the blob is read.
const maxShowFile = 100 << 10

// ShowFile shows path p (asked for as arg) at commit c. The blob's size comes from its header: over the read
// limit (Options.MaxReadBytes) it is described, not read; otherwise at most maxShowFile bytes of it are read.
func ShowFile(rp *repo.Repo, c *object.Commit, p, arg string) (ShowOut, string, error) {
	out := ShowOut{Commit: rp.CommitInfo(c)}
	if p == "" {
		return showDir(rp, out, c.TreeHash, "")
	}
	hit, err := repo.NewTreeLookup(rp).Find(c.TreeHash, p)
	if err != nil {
		return out, "", rp.Noted(err)
	}
	if !hit.Found {
		return out, "", fmt.Errorf("path %q does not exist in %s", arg, c.Hash.String()[:7])
	}
	short := c.Hash.String()[:7]
	switch hit.Mode {
	case filemode.Dir:
		return showDir(rp, out, hit.Hash, p)
	case filemode.Submodule:
		return out, fmt.Sprintf("%s at %s is a submodule at commit %s\n", patchtext.QuotePath(p), short, hit.Hash), nil
	}
	o, err := rp.Git.Storer.EncodedObject(plumbing.BlobObject, hit.Hash)
	if err != nil {
		return out, "", rp.Noted(err)
	}
	out.Size = o.Size()
	if out.Size > rp.MaxRead {
		out.TooLarge = true
		return out, fmt.Sprintf("%s at %s: %s\n", patchtext.QuotePath(p), short, &patchtext.TooLarge{Size: out.Size, Limit: rp.MaxRead}), nil
	}
	data, err := repo.ReadPrefix(o, maxShowFile)
	if err != nil {
		return out, "", err
	}
	switch {
	case patchtext.IsBinary(data):
		out.Binary = true
		return out, fmt.Sprintf("%s at %s is a binary file (%s); its content is not shown\n", patchtext.QuotePath(p), short, patchtext.SizeText(out.Size)), nil
	case out.Size > maxShowFile:
		out.Content, out.Truncated = string(data), true
		return out, out.Content + fmt.Sprintf("\n… cut at %d KB of %d bytes; read the file with a range-capable tool for the rest\n", maxShowFile>>10, out.Size), nil
	}
	out.Content = string(data)
	return out, out.Content, nil
}

// showDir lists a tree like `git show rev:dir`.
func showDir(rp *repo.Repo, out ShowOut, h plumbing.Hash, p string) (ShowOut, string, error) {
	es, err := repo.TreeEntries(rp, h)
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
		b.WriteString(patchtext.QuotePath(name) + "\n")
	}
	out.Content = b.String()
	return out, out.Content, nil
}
