package server

import (
	"context"
	"os"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// installFeatureOptions sets the server options that features need before
// the SDK server exists.
func (s *Server) installFeatureOptions(opts *mcp.ServerOptions) {}

// addFeatures registers every feature on the SDK server.
func (s *Server) addFeatures() error {
	s.isRepo = isRepo
	s.addListRoots()
	return nil
}

// complete dispatches completion/complete to the feature that owns the ref.
func (s *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}, nil
}

// isRepo reports whether dir lies in a Git worktree.
func isRepo(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}
