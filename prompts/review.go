package prompts

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// repo is the repository a prompt works on, as far as prompts needs to know it.
type repo struct {
	prompt string
	sent   string // repo_path as the client sent it, for messages
	arg    string // what Git gets: "" (the root's repository) or the resolved absolute path
	abs    string // absolute path shown in the instructions
	uri    string // file:// URI of the directory
}

// openRepo resolves repo_path through the roots as every path argument is resolved (a path relative to the first
// root, an absolute path or a file:// URI), so Git always gets an absolute path. Outside the roots reads like
// "not a repository", so the two cannot be told apart.
func openRepo(sc *roots.Scope, prompt, repoPath string) (repo, error) {
	if repoPath == "" {
		root, err := scope.DefaultRoot(sc, "repo_path")
		if err != nil {
			return repo{}, invalidParams("prompt %s: %v", prompt, err)
		}
		return repo{prompt: prompt, abs: root.Path, uri: root.URI}, nil
	}
	r := repo{prompt: prompt, sent: repoPath}
	loc, err := sc.Resolve(repoPath)
	if err != nil {
		return repo{}, r.notFound()
	}
	r.arg, r.abs, r.uri = loc.Abs(), loc.Abs(), loc.URI()
	return r, nil
}

// notFound is the refusal for a repository outside the roots, missing, or not a repository: all read the same.
func (r repo) notFound() error {
	if r.sent == "" {
		return invalidParams("prompt %s: no git repository found in the root", r.prompt)
	}
	return invalidParams("prompt %s: no git repository found at %q", r.prompt, r.sent)
}

// gitError maps an error from Git about this repository.
func (r repo) gitError(err error) error { return gitError(r.prompt, err, r.notFound()) }

// link points at the repository directory, where the files behind a cut diff can be read.
func (r repo) link() *mcp.ResourceLink {
	return &mcp.ResourceLink{
		URI:         r.uri,
		Name:        filepath.Base(r.abs),
		Title:       "Repository " + r.abs,
		Description: "The repository's working tree: read the changed files from here.",
	}
}

type changesData struct {
	Repo, What, Mode string
	Cut              bool
}

func (p *Prompts) reviewChanges(ctx context.Context, req *mcp.GetPromptRequest, sc *roots.Scope) (*mcp.GetPromptResult, error) {
	args := req.Params.Arguments
	staged, err := parseBool(args["staged"])
	if err != nil {
		return nil, invalidParams("prompt review_changes: argument staged must be \"true\" or \"false\", not %q", args["staged"])
	}
	r, err := openRepo(sc, "review_changes", args["repo_path"])
	if err != nil {
		return nil, err
	}
	patch, err := p.opts.Git.Diff(ctx, sc, r.arg, staged, args["base"])
	if err != nil {
		return nil, r.gitError(err)
	}
	data := changesData{Repo: r.abs, What: "unstaged changes", Mode: "unstaged"}
	q := url.Values{"mode": {"unstaged"}}
	switch {
	case args["base"] != "":
		data.What, data.Mode, q = "changes against "+args["base"], "base", url.Values{"base": {args["base"]}}
		if staged {
			data.What = "staged changes against " + args["base"]
			q.Set("mode", "staged")
		}
	case staged:
		data.What, data.Mode, q = "staged changes", "staged", url.Values{"mode": {"staged"}}
	}
	if patch == "" {
		msg, err := render("review_changes_empty", data)
		if err != nil {
			return nil, err
		}
		return &mcp.GetPromptResult{Description: "Nothing to review", Messages: []*mcp.PromptMessage{text(msg)}}, nil
	}
	m := p.material(patch)
	m.uri, m.mimeType, m.what, m.link = gitURI("diff", r.uri, q), diffMIME, "diff", r.link()
	m.hint = "hint_diff"
	data.Cut = m.cut
	return result("Review of the "+data.What+" in "+r.abs, "review_changes", data, m)
}

type commitData struct {
	Repo, Revision string
	Cut            bool
}

func (p *Prompts) reviewCommit(ctx context.Context, req *mcp.GetPromptRequest, sc *roots.Scope) (*mcp.GetPromptResult, error) {
	args := req.Params.Arguments
	r, err := openRepo(sc, "review_commit", args["repo_path"])
	if err != nil {
		return nil, err
	}
	rev := args["revision"]
	message, patch, err := p.opts.Git.Show(ctx, sc, r.arg, rev)
	if err != nil {
		return nil, r.gitError(err)
	}
	m := p.material(strings.TrimRight(message, "\n") + "\n\n" + patch)
	m.uri, m.mimeType, m.what, m.link = gitURI("show", r.uri, url.Values{"rev": {rev}}), diffMIME, "commit", r.link()
	m.hint = "hint_commit"
	data := commitData{Repo: r.abs, Revision: rev, Cut: m.cut}
	return result("Review of commit "+rev+" in "+r.abs, "review_commit", data, m)
}

// result renders the named template with data and wraps it with m into a prompt result.
func result(description, name string, data any, m material) (*mcp.GetPromptResult, error) {
	instructions, err := render(name, data)
	if err != nil {
		return nil, err
	}
	msgs, err := m.messages(instructions)
	if err != nil {
		return nil, err
	}
	return &mcp.GetPromptResult{Description: description, Messages: msgs}, nil
}

// parseBool reads an optional boolean argument; "" is false.
// parseBool takes exactly the two values the argument's description and
// completion offer, "true" and "false" ("" is false): strconv.ParseBool's
// "1", "t" or "TRUE" would make the argument an enum with hidden members.
func parseBool(s string) (bool, error) {
	switch s {
	case "true":
		return true, nil
	case "", "false":
		return false, nil
	}
	return false, fmt.Errorf("not \"true\" or \"false\": %q", s)
}
