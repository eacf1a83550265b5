package writecmd

// The creating half of git_tag. gittools registers the tool, refs defines TagArgs/TagOut, and the tool calls
// CreateTag with the repository opened and locked when a name is given.
//
// As git_tag's description promises, every created tag is annotated (tagger = the committer identity), with the
// tag name as the message when none is given, like `git tag -a name -m name`.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/refs"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// CreateTag runs the creating half of git_tag: an annotated tag in.Name at in.Revision (default HEAD). rp is
// opened and locked by the caller, which also lists tags.
func CreateTag(rp *repo.Repo, ctx context.Context, in refs.TagArgs) (refs.TagOut, error) {
	if err := ctx.Err(); err != nil {
		return refs.TagOut{}, err
	}
	name, err := tagName(in.Name)
	if err != nil {
		return refs.TagOut{}, err
	}
	target, err := rp.Resolve(cmp.Or(in.Revision, "HEAD"))
	if err != nil {
		return refs.TagOut{}, err
	}
	if _, err := rp.Git.Storer.Reference(name); err == nil {
		return refs.TagOut{}, fmt.Errorf("tag %q already exists", name.Short())
	}
	msg, err := tagMessage(name.Short(), in.Message)
	if err != nil {
		return refs.TagOut{}, err
	}
	refHash, err := writeTagObject(rp, name.Short(), target, msg)
	if err != nil {
		return refs.TagOut{}, err
	}
	if err := CreateRef(rp, plumbing.NewHashReference(name, refHash)); err != nil {
		return refs.TagOut{}, err
	}
	rp.Changed()
	info := refs.TagInfo{Name: name.Short(), Commit: target.String(), Annotated: true, Subject: gitwrite.SummaryLine(msg)}
	return refs.TagOut{Tags: []refs.TagInfo{info}, Created: true}, nil
}

// tagMessage is the cleaned message of a new tag: the tag name when message is omitted. A message given but
// made only of blank lines is refused rather than silently replaced.
func tagMessage(name, message string) (string, error) {
	if message == "" {
		return gitwrite.CleanMessage(name), nil
	}
	msg := gitwrite.CleanMessage(message)
	if msg == "" {
		return "", errors.New("the tag message is empty after removing blank lines")
	}
	return msg, nil
}

// tagName validates a tag name given short ("v1.0") or full ("refs/tags/v1.0").
func tagName(s string) (plumbing.ReferenceName, error) {
	if err := gitfmt.ValidRefName(s); err != nil {
		return "", err
	}
	short := strings.TrimPrefix(s, "refs/tags/")
	if strings.HasPrefix(s, "refs/") && short == s {
		return "", fmt.Errorf("invalid tag name %q: only refs/tags/ names are tags", s)
	}
	if err := gitfmt.ValidRefName(short); err != nil {
		return "", err
	}
	return plumbing.NewTagReferenceName(short), nil
}

// writeTagObject stores an annotated tag object for the commit target, signed off by the committer identity.
func writeTagObject(rp *repo.Repo, name string, target plumbing.Hash, msg string) (plumbing.Hash, error) {
	tagger, err := gitwrite.Signature(rp, "committer", time.Now())
	if err != nil {
		return plumbing.ZeroHash, err
	}
	t := &object.Tag{Name: name, Tagger: tagger, Message: msg, TargetType: plumbing.CommitObject, Target: target}
	obj := rp.Git.Storer.NewEncodedObject()
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	h, err := rp.Git.Storer.SetEncodedObject(obj)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("writing the tag: %w", err)
	}
	return h, nil
}
