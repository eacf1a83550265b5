package writecmd

import (
	"context"
	"log/slog"

	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/roots"
)

// Env is what every command runs with: the roots of the request, a way to open and lock the repository the
// command names, and a logger. Each command (Add, Reset, Commit, CreateBranch, Checkout, Init, CreateTag) is
// one function taking an Env (or the locked repository) and its tool's arguments, returning its tool's
// answer, whose Text method is the answer's text for the model.
type Env struct {
	Scope *roots.Scope
	// Open opens and locks the repository at repoPath ("" chooses as the tools document, among the roots
	// holding paths when there are several); the func it returns unlocks it.
	Open func(ctx context.Context, repoPath string, paths ...string) (*repo.Repo, func(), error)
	Log  *slog.Logger // nil: discard
}

func (env Env) log() *slog.Logger {
	if env.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return env.Log
}
