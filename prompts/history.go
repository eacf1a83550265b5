package prompts

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
)

type commitMessageData struct {
	Repo     string
	Subjects []string
	Cut      bool
}

func (p *Prompts) commitMessage(ctx context.Context, req *mcp.GetPromptRequest, sc *roots.Scope) (*mcp.GetPromptResult, error) {
	r, err := openRepo(sc, "commit_message", req.Params.Arguments["repo_path"])
	if err != nil {
		return nil, err
	}
	patch, err := p.opts.Git.Diff(ctx, sc, r.arg, true, "")
	if err != nil {
		return nil, r.gitError(err)
	}
	if patch == "" {
		return nil, invalidParams("prompt commit_message: nothing is staged in %s; stage changes first (for example with the git_add tool)", r.abs)
	}
	subjects, err := p.opts.Git.Subjects(ctx, sc, r.arg, subjectCount)
	if err != nil {
		return nil, r.gitError(err)
	}
	m := p.material(patch)
	m.uri, m.mimeType, m.what, m.link = gitURI("diff", r.uri, url.Values{"mode": {"staged"}}), diffMIME, "diff", r.link()
	m.hint = "hint_diff"
	data := commitMessageData{Repo: r.abs, Subjects: oneLine(subjects), Cut: m.cut}
	return result("Commit message for the staged changes in "+r.abs, "commit_message", data, m)
}

// oneLine keeps subjects to one line each, so that a stray newline cannot break the list.
func oneLine(subjects []string) []string {
	out := make([]string, 0, len(subjects))
	for _, s := range subjects {
		if s = strings.Join(strings.Fields(s), " "); s != "" {
			out = append(out, s)
		}
	}
	return out
}

type historyData struct {
	Path string
	Cut  bool
}

func (p *Prompts) explainHistory(ctx context.Context, req *mcp.GetPromptRequest, sc *roots.Scope) (*mcp.GetPromptResult, error) {
	name := req.Params.Arguments["path"]
	notFound := invalidParams("prompt explain_history: file %q not found or not in a Git repository", name)
	loc, err := sc.Resolve(name)
	if err != nil {
		return nil, notFound
	}
	// A deleted file still has history, so only a directory is refused here.
	if info, err := loc.Stat(); err == nil && info.IsDir() {
		return nil, invalidParams("prompt explain_history: %q is a directory, not a file", name)
	}
	log, err := p.opts.Git.FileLog(ctx, sc, loc.Abs(), historyCount)
	if err != nil {
		return nil, gitError("explain_history", err, notFound)
	}
	data := historyData{Path: loc.Abs()}
	if log == "" {
		msg, err := render("explain_history_empty", data)
		if err != nil {
			return nil, err
		}
		return &mcp.GetPromptResult{Description: "No history", Messages: []*mcp.PromptMessage{text(msg)}}, nil
	}
	m := p.material(log)
	m.uri, m.mimeType, m.what = gitURI("log", loc.URI(), nil), diffMIME, "log"
	m.link = &mcp.ResourceLink{URI: loc.URI(), Name: filepath.Base(data.Path), Description: "The file as it is now."}
	m.hint = "hint_log"
	data.Cut = m.cut
	return result("History of "+data.Path, "explain_history", data, m)
}
