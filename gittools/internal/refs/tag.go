package refs

import (
	"sort"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// TagArgs are the arguments of git_tag: without name it lists tags, with name it creates one.
type TagArgs struct {
	RepoPath string `json:"repo_path,omitempty" jsonschema:"the repository or a directory in it: absolute path or file:// URI inside a root (default: the only root; required when there are several)"`
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

// MaxTags caps the listing.
const MaxTags = 500

// Tags lists every tag sorted by name.
func Tags(rp *repo.Repo) ([]TagInfo, error) {
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

func ShortHash(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}
