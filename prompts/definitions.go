package prompts

import "github.com/modelcontextprotocol/go-sdk/mcp"

// The prompt and argument names are a public contract: clients store them in saved workflows.

var (
	argRepoPath = &mcp.PromptArgument{
		Name:        "repo_path",
		Title:       "Repository",
		Description: "A directory inside a Git repository under the roots: an absolute path, a file:// URI, or a path relative to the first root. Default: the only root; required when there are several.",
	}
	argStaged = &mcp.PromptArgument{
		Name:        "staged",
		Title:       "Staged only",
		Description: `"true" to review the staged changes (the index) instead of the unstaged ones. Default "false".`,
	}
	argBase = &mcp.PromptArgument{
		Name:        "base",
		Title:       "Base branch",
		Description: "A branch, tag or commit to compare the working tree with instead of the index (for example main, to review a whole branch); a range such as main..feature also works.",
	}
	argRevision = &mcp.PromptArgument{
		Name:        "revision",
		Title:       "Commit",
		Description: "The commit to review: a hash (full or short), branch, tag or expression such as HEAD~1.",
		Required:    true,
	}
	argFile = &mcp.PromptArgument{
		Name:        "path",
		Title:       "File",
		Description: "The file: an absolute path, a file:// URI, or a path relative to the first root.",
		Required:    true,
	}
	argFocus = &mcp.PromptArgument{
		Name:        "focus",
		Title:       "Focus",
		Description: "What to concentrate on, for example security, performance, readability, tests or correctness. Default: all of them.",
	}
)

// focusSuggestions complete the focus argument.
var focusSuggestions = []string{"correctness", "performance", "readability", "security", "tests"}

func definitions() []*mcp.Prompt {
	return []*mcp.Prompt{
		{
			Name:        "review_changes",
			Title:       "Review changes",
			Description: "Review the uncommitted changes of a Git repository (unstaged by default, staged, or against a base branch) for correctness, security, tests and readability. The diff is embedded.",
			Arguments:   []*mcp.PromptArgument{argRepoPath, argStaged, argBase},
		},
		{
			Name:        "review_commit",
			Title:       "Review a commit",
			Description: "Review one commit: its message and patch are embedded.",
			Arguments:   []*mcp.PromptArgument{argRepoPath, argRevision},
		},
		{
			Name:        "review_file",
			Title:       "Review a file",
			Description: "Review one file under the roots, optionally with a focus. The file is embedded (binary files are named, not included).",
			Arguments:   []*mcp.PromptArgument{argFile, argFocus},
		},
		{
			Name:        "commit_message",
			Title:       "Write a commit message",
			Description: "Draft a commit message for the staged changes in the style of the repository's recent commit subjects.",
			Arguments:   []*mcp.PromptArgument{argRepoPath},
		},
		{
			Name:        "explain_history",
			Title:       "Explain a file's history",
			Description: "Explain how a file evolved: its recent commits with patches are embedded.",
			Arguments:   []*mcp.PromptArgument{withDescription(argFile, "The file whose history to explain: an absolute path, a file:// URI, or a path relative to the first root. It must be inside a Git repository.")},
		},
		resolveConflictsDef,
	}
}

func withDescription(a *mcp.PromptArgument, desc string) *mcp.PromptArgument {
	c := *a
	c.Description = desc
	return &c
}
