package gittools

import (
	"context"
	"fmt"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/refs"

	"github.com/grove-mcp/grove/internal/words"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (r *Repos) addBranch(s *mcp.Server) {
	scope.AddTool(s, &mcp.Tool{
		Name:        "git_branch",
		Title:       "Git branches",
		Description: "List local, remote or all branches with the commit each points at; the current branch is marked with *.",
		Annotations: readOnlyTool(),
	}, r.opts.Scope, r.branch)
}

func (r *Repos) branch(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in refs.BranchArgs) (*mcp.CallToolResult, refs.BranchOut, error) {
	var local, remote bool
	switch in.BranchType {
	case "", "local":
		local = true
	case "remote":
		remote = true
	case "all":
		local, remote = true, true
	default:
		return nil, refs.BranchOut{}, fmt.Errorf("branch_type must be local, remote or all, not %q", in.BranchType)
	}
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, refs.BranchOut{}, err
	}
	defer unlock()
	out, err := refs.Branches(rp, local, remote)
	if err != nil {
		return nil, refs.BranchOut{}, err
	}
	var b strings.Builder
	for _, br := range out.Branches {
		mark := "  "
		if br.Current {
			mark = "* "
		}
		name := br.Name
		if br.Remote && remote && local {
			name = "remotes/" + name
		}
		fmt.Fprintf(&b, "%s%s %s\n", mark, name, refs.ShortHash(br.Commit))
	}
	if len(out.Branches) == 0 {
		b.WriteString("no branches\n")
	}
	return textResult(b.String()), out, nil
}

func (r *Repos) addTag(s *mcp.Server) {
	t := &mcp.Tool{
		Name:  "git_tag",
		Title: "Git tags",
		Description: "List tags (sorted by name, with the commit each points at), or, when name is given, create an " +
			"annotated tag at revision (default HEAD) with message (default: the tag name).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: r.opts.ReadOnly, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
	}
	if r.opts.ReadOnly {
		t.Description = "List tags sorted by name, with the commit each points at."
		t.Annotations = readOnlyTool()
	}
	scope.AddTool(s, t, r.opts.Scope, r.tag)
}

func (r *Repos) tag(ctx context.Context, req *mcp.CallToolRequest, sc *roots.Scope, in refs.TagArgs) (*mcp.CallToolResult, refs.TagOut, error) {
	if in.Name == "" && (in.Message != "" || in.Revision != "") {
		return nil, refs.TagOut{}, fmt.Errorf("message and revision need a tag name")
	}
	if in.Name != "" && r.opts.ReadOnly {
		return nil, refs.TagOut{}, fmt.Errorf("the server is read-only: tags can be listed, not created")
	}
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, refs.TagOut{}, err
	}
	defer unlock()
	if in.Name != "" {
		return r.createTag(ctx, rp, in)
	}
	tags, err := refs.Tags(rp)
	if err != nil {
		return nil, refs.TagOut{}, err
	}
	out := refs.TagOut{Tags: tags}
	var b strings.Builder
	for i, t := range tags {
		if i == refs.MaxTags {
			n := len(tags) - refs.MaxTags
			fmt.Fprintf(&b, "… %d more %s not shown\n", n, words.Plural(n, "tag", "tags"))
			out.Tags = tags[:refs.MaxTags]
			break
		}
		fmt.Fprintf(&b, "%s %s", t.Name, refs.ShortHash(t.Commit))
		if t.Subject != "" {
			fmt.Fprintf(&b, " %s", t.Subject)
		}
		b.WriteByte('\n')
	}
	if len(tags) == 0 {
		b.WriteString("no tags\n")
	}
	return textResult(b.String()), out, nil
}
