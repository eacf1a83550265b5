package prompts

import (
	"context"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
)

// maxValues is the most completion values one answer may carry (MCP spec, completion/complete).
const maxValues = 100

// Complete answers completion/complete for a ref/prompt reference: repo_path completes to directories under the
// roots, path to files (both honouring .gitignore), revision and base to branches, tags and short hashes of the
// repository named by the repo_path already given, staged to true/false and focus to a few review areas.
//
// Paths are completed in the form they were typed: absolute paths (the default, also for an empty value), file://
// URIs, or paths relative to the first root. Completion never fails for a value it cannot complete (outside the
// roots, not a repository): it answers no values, revealing nothing. An unknown prompt is a JSON-RPC error.
func (p *Prompts) Complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	ref := req.Params.Ref
	if ref == nil || ref.Type != "ref/prompt" {
		return complete(nil, false), nil
	}
	if !slices.ContainsFunc(definitions(), func(d *mcp.Prompt) bool { return d.Name == ref.Name }) {
		return nil, invalidParams("completion: unknown prompt %q", ref.Name)
	}
	arg := req.Params.Argument
	switch arg.Name {
	case "staged":
		return complete(withPrefix([]string{"false", "true"}, arg.Value), false), nil
	case "focus":
		return complete(withPrefix(focusSuggestions, arg.Value), false), nil
	}
	sc, _ := p.opts.Scope.Scope(req)
	if sc.Empty() {
		return complete(nil, false), nil
	}
	switch arg.Name {
	case "repo_path":
		values, more := p.completePaths(ctx, sc, arg.Value, true)
		return complete(values, more), nil
	case "path":
		values, more := p.completePaths(ctx, sc, arg.Value, false)
		return complete(values, more), nil
	case "revision", "base":
		return complete(p.completeRevisions(ctx, sc, req, arg.Value), false), nil
	}
	return complete(nil, false), nil
}

func (p *Prompts) completeRevisions(ctx context.Context, sc *roots.Scope, req *mcp.CompleteRequest, prefix string) []string {
	var repoPath string
	if c := req.Params.Context; c != nil {
		repoPath = c.Arguments["repo_path"]
	}
	if repoPath != "" {
		loc, err := sc.Resolve(repoPath)
		if err != nil {
			return nil
		}
		repoPath = loc.Abs()
	}
	revs, err := p.opts.Git.Revisions(ctx, sc, repoPath, prefix)
	if err != nil {
		p.opts.Logger.Debug("completing revisions", "repo_path", repoPath, "err", err)
		return nil
	}
	return revs
}

// complete builds the result: at most maxValues values, with the total and hasMore when some were left off. more
// says that values is itself incomplete (the search stopped early), so the total is unknown.
func complete(values []string, more bool) *mcp.CompleteResult {
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, HasMore: more}}
	if values == nil {
		res.Completion.Values = []string{}
	}
	if len(values) > maxValues {
		res.Completion.Values = values[:maxValues]
		res.Completion.HasMore = true
		if !more {
			res.Completion.Total = len(values)
		}
	}
	return res
}

// withPrefix returns the values that start with prefix, ignoring case.
func withPrefix(values []string, prefix string) []string {
	var out []string
	for _, v := range values {
		if len(v) >= len(prefix) && strings.EqualFold(v[:len(prefix)], prefix) {
			out = append(out, v)
		}
	}
	return out
}
