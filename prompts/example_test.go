package prompts_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/prompts"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// noGit stands in for *gittools.Repos.
type noGit struct{ prompts.Git }

func Example() {
	dir, err := os.MkdirTemp("", "prompts-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	set, err := roots.NewSet([]string{dir}, nil)
	if err != nil {
		log.Fatal(err)
	}
	p := prompts.New(prompts.Options{Scope: scope.Static(set.Scope()), Git: noGit{}})
	s := mcp.NewServer(&mcp.Implementation{Name: "grove", Version: "v0"}, &mcp.ServerOptions{CompletionHandler: p.Complete})
	p.Register(s)

	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := s.Connect(ctx, st, nil); err != nil {
		log.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	for prompt, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(prompt.Name)
	}
	res, err := cs.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "review_file"},
		Argument: mcp.CompleteParamsArgument{Name: "focus", Value: "s"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Completion.Values)
	// Output:
	// commit_message
	// explain_history
	// resolve_conflicts
	// review_changes
	// review_commit
	// review_file
	// [security]
}
