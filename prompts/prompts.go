// Package prompts serves grove's MCP prompts: code-review and Git-history templates with the real diffs, commits
// and files embedded as resources, plus completion of their arguments.
//
//	p := prompts.New(prompts.Options{Scope: provider, Git: repos}) // repos is a *gittools.Repos
//	p.Register(server)                                             // review_changes, review_commit, review_file, commit_message, explain_history
//	// in mcp.ServerOptions.CompletionHandler, for ref/prompt: return p.Complete(ctx, req)
//
// # Embedded content
//
// Every prompt answers with user messages: the instructions (text, rendered from templates/*.tmpl), then the
// material as an [mcp.EmbeddedResource] holding [mcp.ResourceContents] text. Material larger than
// [Options.MaxEmbedBytes] is cut at a line boundary and followed by a note and an [mcp.ResourceLink] to where the
// rest can be read (the repository directory or the file). The URIs of the embedded resources are:
//
//	review_changes   git+diff:///abs/repo?mode=unstaged | ?mode=staged | ?base=<rev>   (text/x-diff)
//	commit_message   git+diff:///abs/repo?mode=staged                                  (text/x-diff)
//	review_commit    git+show:///abs/repo?rev=<rev>                                    (text/x-diff)
//	explain_history  git+log:///abs/repo/path/to/file                                  (text/x-diff)
//	review_file      file:///abs/path/to/file (the file's own URI, readable with resources/read)
//
// The git+* URIs name the material; they are not served by resources/read. The path part is the percent-encoded
// path of the repository (or file) as in its file:// URI.
//
// # Errors
//
// Refusals are JSON-RPC errors with code -32602 (invalid params): a missing required argument, a path outside the
// roots or missing (both read the same), not a repository, an unknown revision, a directory or device given as a
// file, and commit_message with nothing staged. Nothing to review (an empty diff, a file without history) is not an
// error: the prompt then says there is nothing to review.
package prompts

import (
	"context"
	"log/slog"

	"github.com/gabriel-vasile/mimetype"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/ignore"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// Git is the part of *gittools.Repos the prompts use. Errors from it are shown to the client, so their texts must
// not contain paths outside the roots (gittools' errors only repeat what the client sent).
type Git interface {
	// Diff returns the unstaged diff, the staged one (staged), or the one against base.
	Diff(ctx context.Context, sc *roots.Scope, repoPath string, staged bool, base string) (patch string, err error)
	// Show returns a commit's message and patch.
	Show(ctx context.Context, sc *roots.Scope, repoPath, revision string) (message, patch string, err error)
	// FileLog returns the newest max commits touching the file at path, with patches.
	FileLog(ctx context.Context, sc *roots.Scope, path string, max int) (log string, err error)
	// Subjects returns the subjects of the newest n commits.
	Subjects(ctx context.Context, sc *roots.Scope, repoPath string, n int) ([]string, error)
	// Revisions returns branches, tags and recent short hashes starting with prefix.
	Revisions(ctx context.Context, sc *roots.Scope, repoPath, prefix string) ([]string, error)
}

// DefaultMaxEmbedBytes is the default cap for one embedded diff, log or file.
const DefaultMaxEmbedBytes = 200 << 10

const (
	subjectCount = 20 // commit subjects shown to commit_message as a style guide
	historyCount = 10 // commits explain_history asks FileLog for
)

// Options configure [New]. Scope and Git are required.
type Options struct {
	Scope         scope.Provider
	Git           Git
	Files         Files        // nil: a matcher per completion, and mimetype's own types
	Logger        *slog.Logger // nil discards
	MaxEmbedBytes int          // cap for each embedded diff, log or file; 0 means DefaultMaxEmbedBytes
}

// Files is what the prompts need of the file resources, so that path
// completion hides what resources/list hides and an embedded file has the
// type resources/read gives it.
type Files interface {
	// Matcher is the .gitignore matcher of a directory root, cached.
	Matcher(r roots.Root) (*ignore.Matcher, error)
	// MIMEType is the type of a file called name whose content starts with
	// head; text says whether it is UTF-8 text.
	MIMEType(name string, head []byte, text bool) string
}

// Prompts serves the prompts and their completions. It is safe for concurrent use.
type Prompts struct {
	opts Options
}

// New returns the prompts. It panics if Scope or Git is nil (a wiring mistake).
func New(opts Options) *Prompts {
	if opts.Scope == nil || opts.Git == nil {
		panic("prompts.New: Scope and Git are required")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.MaxEmbedBytes <= 0 {
		opts.MaxEmbedBytes = DefaultMaxEmbedBytes
	}
	if opts.Files == nil {
		opts.Files = ownFiles{}
	}
	return &Prompts{opts: opts}
}

// ownFiles serves prompts that run without file resources.
type ownFiles struct{}

func (ownFiles) Matcher(r roots.Root) (*ignore.Matcher, error) { return ignore.New(r.Path) }

func (ownFiles) MIMEType(_ string, head []byte, _ bool) string { return mimetype.Detect(head).String() }

// Register adds every prompt to s.
func (p *Prompts) Register(s *mcp.Server) {
	handlers := map[string]func(context.Context, *mcp.GetPromptRequest, *roots.Scope) (*mcp.GetPromptResult, error){
		"review_changes":    p.reviewChanges,
		"review_commit":     p.reviewCommit,
		"review_file":       p.reviewFile,
		"commit_message":    p.commitMessage,
		"explain_history":   p.explainHistory,
		"resolve_conflicts": p.resolveConflicts,
	}
	for _, def := range definitions() {
		h, ok := handlers[def.Name]
		if !ok {
			panic("prompts: no handler for prompt " + def.Name)
		}
		s.AddPrompt(def, checked(def, scope.Prompt(p.opts.Scope, h)))
	}
}

// checked refuses a request that lacks one of def's required arguments before h runs, so that a modern client is
// not asked for its roots first.
func checked(def *mcp.Prompt, h mcp.PromptHandler) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		for _, a := range def.Arguments {
			if a.Required && req.Params.Arguments[a.Name] == "" {
				return nil, invalidParams("prompt %s: missing required argument %q", def.Name, a.Name)
			}
		}
		return h(ctx, req)
	}
}
