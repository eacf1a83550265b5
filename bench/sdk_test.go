package bench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/grove-mcp/grove/bench/internal/benchutil"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listing mirrors the shape of list_directory's answer: 1,000 entries.
type listing struct {
	Path    string  `json:"path"`
	Entries []entry `json:"entries"`
}

type entry struct {
	Name string `json:"name"`
	Type string `json:"type" jsonschema:"file, dir, symlink or other"`
	Size int64  `json:"size,omitempty"`
}

type listArgs struct {
	Path string `json:"path"`
}

func bigListing() listing {
	l := listing{Path: "/x"}
	for i := range 1000 {
		l.Entries = append(l.Entries, entry{Name: fmt.Sprintf("f%04d.txt", i), Type: "file", Size: 6})
	}
	return l
}

// BenchmarkSDKOutput measures what the go-sdk adds per call for a
// 1,000-entry structured result: "typed" is mcp.AddTool (output validated
// against the inferred schema on every call), "raw" is Server.AddTool with
// the same schemas, built once, and structuredContent marshalled by hand.
func BenchmarkSDKOutput(b *testing.B) {
	out := bigListing()
	text := &mcp.TextContent{Text: "1000 entries"}
	for _, mode := range []string{"typed", "raw"} {
		b.Run(mode, func(b *testing.B) {
			s := mcp.NewServer(&mcp.Implementation{Name: "sdkbench", Version: "0"}, nil)
			tool := &mcp.Tool{Name: "list", Description: "list"}
			if mode == "typed" {
				mcp.AddTool(s, tool, func(context.Context, *mcp.CallToolRequest, listArgs) (*mcp.CallToolResult, listing, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{text}}, out, nil
				})
			} else {
				addRaw(b, s, tool, out, text)
			}
			cs := connect(b, s)
			ctx := context.Background()
			for b.Loop() {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list", Arguments: map[string]any{"path": "/x"}})
				if _, err := benchutil.Text(res, err); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func addRaw(b *testing.B, s *mcp.Server, tool *mcp.Tool, out listing, text mcp.Content) {
	in, err := jsonschema.For[listArgs](nil)
	if err != nil {
		b.Fatal(err)
	}
	outSchema, err := jsonschema.For[listing](nil)
	if err != nil {
		b.Fatal(err)
	}
	tool.InputSchema, tool.OutputSchema = in, outSchema
	s.AddTool(tool, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args listArgs
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
			return nil, err
		}
		data, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{text}, StructuredContent: json.RawMessage(data)}, nil
	})
}

func connect(b *testing.B, s *mcp.Server) *mcp.ClientSession {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: benchutil.Legacy})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}
