package gittools

// The creating half of git_tag. tag.go registers the tool, defines TagArgs/TagOut and calls createTag with the
// repository opened and locked when a name is given.
//
// As git_tag's description promises: annotated (tagger = the committer identity) when a message is given,
// lightweight otherwise.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// createTag creates the tag in.Name at in.Revision (default HEAD). rp is locked by the caller.
func (r *Repos) createTag(ctx context.Context, rp *repo, in TagArgs) (*mcp.CallToolResult, TagOut, error) {
	if err := ctx.Err(); err != nil {
		return nil, TagOut{}, err
	}
	name, err := tagName(in.Name)
	if err != nil {
		return nil, TagOut{}, err
	}
	rev := in.Revision
	if rev == "" {
		rev = "HEAD"
	}
	target, err := rp.resolve(rev)
	if err != nil {
		return nil, TagOut{}, err
	}
	if _, err := rp.git.Storer.Reference(name); err == nil {
		return nil, TagOut{}, fmt.Errorf("tag %q already exists", name.Short())
	}
	info := TagInfo{Name: name.Short(), Commit: target.String()}
	refHash := target
	if msg := cleanMessage(in.Message); msg != "" {
		if refHash, err = rp.writeTagObject(name.Short(), target, msg); err != nil {
			return nil, TagOut{}, err
		}
		info.Annotated, info.Subject = true, summaryLine(msg)
	} else if strings.TrimSpace(in.Message) != "" {
		return nil, TagOut{}, errors.New("the tag message is empty after removing blank lines")
	}
	if err := rp.createRef(plumbing.NewHashReference(name, refHash)); err != nil {
		return nil, TagOut{}, err
	}
	rp.changed()
	kind := "lightweight"
	if info.Annotated {
		kind = "annotated"
	}
	text := fmt.Sprintf("Created %s tag %s at %s.", kind, info.Name, shortHash(info.Commit))
	return textResult(text), TagOut{Tags: []TagInfo{info}, Created: true}, nil
}

// tagName validates a tag name given short ("v1.0") or full ("refs/tags/v1.0").
func tagName(s string) (plumbing.ReferenceName, error) {
	if err := validRefName(s); err != nil {
		return "", err
	}
	short := strings.TrimPrefix(s, "refs/tags/")
	if strings.HasPrefix(s, "refs/") && short == s {
		return "", fmt.Errorf("invalid tag name %q: only refs/tags/ names are tags", s)
	}
	if err := validRefName(short); err != nil {
		return "", err
	}
	return plumbing.NewTagReferenceName(short), nil
}

// writeTagObject stores an annotated tag object for the commit target, signed off by the committer identity.
func (rp *repo) writeTagObject(name string, target plumbing.Hash, msg string) (plumbing.Hash, error) {
	tagger, err := rp.signature("committer", time.Now())
	if err != nil {
		return plumbing.ZeroHash, err
	}
	t := &object.Tag{Name: name, Tagger: tagger, Message: msg, TargetType: plumbing.CommitObject, Target: target}
	obj := rp.git.Storer.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	h, err := rp.git.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("writing the tag: %w", err)
	}
	return h, nil
}
