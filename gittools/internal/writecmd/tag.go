package writecmd

// The creating half of git_tag. tag.go registers the tool, defines TagArgs/TagOut and calls createTag with the
// repository opened and locked when a name is given.
//
// As git_tag's description promises, every created tag is annotated (tagger = the committer identity), with the
// tag name as the message when none is given, like `git tag -a name -m name`.

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// TagMessage is the cleaned message of a new tag: the tag name when message is omitted. A message given but
// made only of blank lines is refused rather than silently replaced.
func TagMessage(name, message string) (string, error) {
	if message == "" {
		return gitwrite.CleanMessage(name), nil
	}
	msg := gitwrite.CleanMessage(message)
	if msg == "" {
		return "", errors.New("the tag message is empty after removing blank lines")
	}
	return msg, nil
}

// TagName validates a tag name given short ("v1.0") or full ("refs/tags/v1.0").
func TagName(s string) (plumbing.ReferenceName, error) {
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

// WriteTagObject stores an annotated tag object for the commit target, signed off by the committer identity.
func WriteTagObject(rp *repo.Repo, name string, target plumbing.Hash, msg string) (plumbing.Hash, error) {
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
