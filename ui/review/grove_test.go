package review_test

import (
	"context"
	"testing"

	"github.com/grove-mcp/grove/server"
	"github.com/grove-mcp/grove/ui/review"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect serves a grove over a temp root and returns a session of a client
// that declares the MCP Apps extension when ext is set.
func connect(t *testing.T, ext bool) *mcp.ClientSession {
	t.Helper()
	s, err := server.New(server.Config{Roots: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	caps := &mcp.ClientCapabilities{}
	if ext {
		caps.AddExtension(review.Extension, map[string]any{"mimeTypes": []string{review.MIMEType}})
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "v0"}, &mcp.ClientOptions{Capabilities: caps}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// linked returns the tools and prompts of grove whose _meta.ui.resourceUri
// names the view.
func linked(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	ctx := context.Background()
	var names []string
	for tl, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if ui, ok := tl.Meta["ui"].(map[string]any); ok && ui["resourceUri"] == review.URI {
			names = append(names, tl.Name)
		}
	}
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if ui, ok := p.Meta["ui"].(map[string]any); ok && ui["resourceUri"] == review.URI {
			names = append(names, p.Name)
		}
	}
	return names
}

func TestGrove(t *testing.T) {
	ctx := context.Background()
	host := connect(t, true)
	if got := linked(t, host); len(got) != 4 || got[0] != "git_diff" || got[1] != "git_show" {
		t.Errorf("linked for a host with the extension: %q, want git_diff, git_show and the two review prompts", got)
	}
	res, err := host.ReadResource(ctx, &mcp.ReadResourceParams{URI: review.URI})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].MIMEType != review.MIMEType {
		t.Fatalf("reading the view: %v, %+v", err, res)
	}

	plain := connect(t, false)
	if got := linked(t, plain); len(got) != 0 {
		t.Errorf("linked for a client without the extension: %q", got)
	}
	if _, err := plain.ReadResource(ctx, &mcp.ReadResourceParams{URI: review.URI}); err == nil {
		t.Error("a client without the extension read the view")
	}
}
