package prompts

import (
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/ignore"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// countingFiles is a Files that names every type text/x-test and counts
// the matchers asked for.
type countingFiles struct{ matchers atomic.Int32 }

func (f *countingFiles) Matcher(r roots.Root) (*ignore.Matcher, error) {
	f.matchers.Add(1)
	return ignore.New(r.Path)
}

func (f *countingFiles) MIMEType(string, []byte, bool) string { return "text/x-test" }

// With Files, review_file embeds the file with Files' type, and path
// completion walks with Files' matcher.
func TestFilesAreAsked(t *testing.T) {
	dir := tree(t)
	files := &countingFiles{}
	p := New(Options{Scope: scope.Static(newScope(t, dir)), Git: newFake(dir), Files: files})
	cs := connect(t, p)
	res, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "review_file", Arguments: map[string]string{"path": "main.go"}})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, m := range res.Messages {
		switch c := m.Content.(type) {
		case *mcp.EmbeddedResource:
			types = append(types, c.Resource.MIMEType)
		case *mcp.ResourceLink:
			types = append(types, c.MIMEType)
		}
	}
	if len(types) == 0 {
		t.Fatal("review_file embedded nothing")
	}
	for _, typ := range types {
		if typ != "text/x-test" {
			t.Errorf("review_file embeds main.go as %q, want Files' text/x-test", typ)
		}
	}
	if _, err := cs.Complete(t.Context(), completeReq("review_file", "path", dir+"/", nil)); err != nil {
		t.Fatal(err)
	}
	if files.matchers.Load() == 0 {
		t.Error("path completion did not ask Files for the matcher")
	}
}
