package gittools

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// TagArgs are the arguments of git_tag: without name it lists tags, with name it creates one.
type TagArgs struct {
	RepoPath string `json:"repo_path,omitempty" jsonschema:"absolute path or file:// URI inside a root; optional when there is exactly one root"`
	Name     string `json:"name,omitempty" jsonschema:"tag to create; omit to list tags"`
	Message  string `json:"message,omitempty" jsonschema:"with name: the annotated tag's message (default: the tag name)"`
	Revision string `json:"revision,omitempty" jsonschema:"with name: the commit to tag (default HEAD)"`
}

// TagOut is the structured result of git_tag.
type TagOut struct {
	Tags    []TagInfo `json:"tags" jsonschema:"tags sorted by name (listing), or the created tag"`
	Created bool      `json:"created,omitempty"`
}

// TagInfo describes one tag.
type TagInfo struct {
	Name      string `json:"name"`
	Commit    string `json:"commit" jsonschema:"the commit the tag points at (annotated tags peeled)"`
	Annotated bool   `json:"annotated,omitempty"`
	Subject   string `json:"subject,omitempty" jsonschema:"first line of the tag message (annotated tags)"`
}

// maxTags caps the listing.
const maxTags = 500

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

func (r *Repos) tag(ctx context.Context, req *mcp.CallToolRequest, sc *roots.Scope, in TagArgs) (*mcp.CallToolResult, TagOut, error) {
	if in.Name == "" && (in.Message != "" || in.Revision != "") {
		return nil, TagOut{}, fmt.Errorf("message and revision need a tag name")
	}
	if in.Name != "" && r.opts.ReadOnly {
		return nil, TagOut{}, fmt.Errorf("the server is read-only: tags can be listed, not created")
	}
	rp, unlock, err := r.open(ctx, sc, in.RepoPath)
	if err != nil {
		return nil, TagOut{}, err
	}
	defer unlock()
	if in.Name != "" {
		return r.createTag(ctx, rp, in)
	}
	tags, err := tags(rp)
	if err != nil {
		return nil, TagOut{}, err
	}
	out := TagOut{Tags: tags}
	var b strings.Builder
	for i, t := range tags {
		if i == maxTags {
			fmt.Fprintf(&b, "… %d more tags not shown\n", len(tags)-maxTags)
			out.Tags = tags[:maxTags]
			break
		}
		fmt.Fprintf(&b, "%s %s", t.Name, shortHash(t.Commit))
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

// tags lists every tag sorted by name.
func tags(rp *repo.Repo) ([]TagInfo, error) {
	it, err := rp.Git.Tags()
	if err != nil {
		return nil, err
	}
	tags := []TagInfo{}
	err = it.ForEach(func(ref *plumbing.Reference) error {
		t := TagInfo{Name: ref.Name().Short(), Commit: ref.Hash().String()}
		if to, err := rp.Git.TagObject(ref.Hash()); err == nil {
			t.Annotated, t.Subject = true, repo.FirstLineOf(to.Message)
			if c, err := to.Commit(); err == nil {
				t.Commit = c.Hash.String()
			} else if err != object.ErrUnsupportedObject {
				t.Commit = to.Target.String()
			}
		}
		tags = append(tags, t)
		return nil
	})
	sort.Slice(tags, func(i, j int) bool { return tags[i].Name < tags[j].Name })
	return tags, err
}

func shortHash(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}
