package scope_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Text  string   `json:"text" jsonschema:"what to echo"`
	Times int      `json:"times,omitempty" jsonschema:"how often"`
	Tags  []string `json:"tags" jsonschema:"labels, required"`
}

type echoOut struct {
	Echo  string `json:"echo"`
	Roots int    `json:"roots"`
}

func echo(_ context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in echoIn) (*mcp.CallToolResult, echoOut, error) {
	switch in.Text {
	case "fail":
		return nil, echoOut{}, errors.New("it failed")
	case "protocol":
		return nil, echoOut{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad call"}
	}
	return nil, echoOut{Echo: strings.Repeat(in.Text, max(in.Times, 1)), Roots: len(sc.Roots())}, nil
}

// connect serves the echo tool through scope.AddTool with provider p.
func connect(t *testing.T, p scope.Provider) *mcp.ClientSession {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	scope.AddTool(s, &mcp.Tool{Name: "echo", Description: "echo"}, p, echo)
	return serve(t, s, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
}

// serve connects an in-memory client (with opts) to s, both closed when the test ends.
func serve(t *testing.T, s *mcp.Server, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func someScope(t *testing.T) *roots.Scope {
	t.Helper()
	set, err := roots.NewSet([]string{t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return set.Scope()
}

func TestAddTool(t *testing.T) {
	cs := connect(t, scope.Static(someScope(t)))
	for _, tt := range []struct {
		name       string
		args       map[string]any
		wantErr    string // substring of the isError text; "" for success
		wantOut    string // structuredContent
		wantRPCErr bool
	}{
		{"ok", map[string]any{"text": "<a&b>", "times": 2, "tags": []string{}}, "", `{"echo":"<a&b><a&b>","roots":1}`, false},
		{"missing required argument", map[string]any{"tags": []string{}}, "validating \"arguments\"", "", false},
		{"wrong type", map[string]any{"text": 3, "tags": []string{}}, "validating \"arguments\"", "", false},
		{"null for a required list", map[string]any{"text": "x", "tags": nil}, "validating \"arguments\"", "", false},
		{"handler error", map[string]any{"text": "fail", "tags": []string{}}, "it failed", "", false},
		{"protocol error stays one", map[string]any{"text": "protocol", "tags": []string{}}, "", "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: tt.args})
			if tt.wantRPCErr {
				if err == nil {
					t.Fatalf("got %+v, want a JSON-RPC error", res)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if tt.wantErr != "" {
				if !res.IsError || !strings.Contains(text, tt.wantErr) {
					t.Errorf("got %q (isError %v), want an error containing %q", text, res.IsError, tt.wantErr)
				}
				return
			}
			var want any
			if err := json.Unmarshal([]byte(tt.wantOut), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, res.StructuredContent); diff != "" {
				t.Errorf("structuredContent mismatch (-want +got):\n%s", diff)
			}
			if text != tt.wantOut {
				t.Errorf("text %q, want the output's JSON %q", text, tt.wantOut)
			}
		})
	}
}

func TestAddToolSchemas(t *testing.T) {
	cs := connect(t, scope.Static(someScope(t)))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := json.Marshal(res.Tools[0].InputSchema)
	out, _ := json.Marshal(res.Tools[0].OutputSchema)
	if strings.Contains(string(in), "null") {
		t.Errorf("input schema %s lets a required argument be null", in)
	}
	for _, want := range []string{`"required":["text","tags"]`, `"what to echo"`, `"items":{"type":"string"},"type":"array"`} {
		if !strings.Contains(string(in), want) {
			t.Errorf("input schema %s lacks %s", in, want)
		}
	}
	if !strings.Contains(string(out), `"type":"object"`) || !strings.Contains(string(out), `"echo"`) {
		t.Errorf("output schema %s", out)
	}
}

func TestAddToolWithoutRoots(t *testing.T) {
	cs := connect(t, scope.Static(nil))
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "x", "tags": []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.Contains(text, "--root") {
		t.Errorf("got %q, want the no-roots error naming --root", text)
	}
}

// askRoots asks for the client's roots once, then uses what they narrow to.
type askRoots struct{ sc *roots.Scope }

func (a askRoots) Scope(req mcp.Request) (*roots.Scope, mcp.InputRequestMap) {
	if r, ok := req.(*mcp.CallToolRequest); ok && r.Params.InputResponses["roots"] != nil {
		return a.sc, nil
	}
	return nil, mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}
}

func TestAddToolAsksForRoots(t *testing.T) {
	cs := connect(t, askRoots{someScope(t)})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "x", "tags": []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("got %+v", res)
	}
	got, _ := json.Marshal(res.StructuredContent)
	if string(got) != `{"echo":"x","roots":1}` {
		t.Errorf("structuredContent %s after the roots round trip", got)
	}
}

func TestCheckSchemas(t *testing.T) {
	cs := connect(t, scope.Static(someScope(t)))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := scope.CheckSchemas(res.Tools); err != nil {
		t.Errorf("the echo tool's schemas as listed: %v", err)
	}
	bad := &mcp.Tool{Name: "bad", InputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
		"n": {Type: "integer", Default: json.RawMessage(`"not a number"`)},
	}}}
	err = scope.CheckSchemas([]*mcp.Tool{res.Tools[0], bad})
	if err == nil || !strings.Contains(err.Error(), "input schema of bad") {
		t.Errorf("a default that breaks its own schema: err = %v, want one naming the bad tool's input schema", err)
	}
}

// slowOut's ",string" field is one jsonenc leaves to encoding/json.
type slowOut struct {
	N int `json:"n,string"`
}

func TestSlowOutputs(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	h := func(context.Context, *mcp.CallToolRequest, *roots.Scope, struct{}) (*mcp.CallToolResult, slowOut, error) {
		return nil, slowOut{}, nil
	}
	scope.AddTool(s, &mcp.Tool{Name: "slow_output"}, scope.Static(nil), h)
	if got := scope.SlowOutputs(); !slices.Contains(got, "slow_output") {
		t.Errorf("SlowOutputs() = %q, want it to name slow_output", got)
	}
}
