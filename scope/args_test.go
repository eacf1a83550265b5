package scope_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

type optIn struct {
	Context *int              `json:"context,omitempty" jsonschema:"lines of context (default 3; 0 is none)"`
	Files   []string          `json:"files,omitempty" jsonschema:"paths"`
	Flag    bool              `json:"flag,omitempty" jsonschema:"a switch"`
	Ratio   float64           `json:"ratio,omitempty" jsonschema:"a number"`
	Kind    string            `json:"kind,omitempty" jsonschema:"a or b" enum:"a,b"`
	Nested  []optNested       `json:"nested,omitempty" jsonschema:"items"`
	Labels  map[string]string `json:"labels,omitempty" jsonschema:"labels"`
}

type optNested struct {
	Lines []int `json:"lines,omitempty" jsonschema:"line numbers"`
}

type optOut struct {
	Context string `json:"context"`
	Files   int    `json:"files"`
}

func opt(_ context.Context, _ *mcp.CallToolRequest, _ *roots.Scope, in optIn) (*mcp.CallToolResult, optOut, error) {
	out := optOut{Context: "absent", Files: len(in.Files)}
	if in.Context != nil {
		out.Context = strings.Repeat("x", *in.Context)
	}
	return nil, out, nil
}

func connectOpt(t *testing.T) *mcp.ClientSession {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	scope.AddTool(s, &mcp.Tool{Name: "opt", Description: "opt"}, scope.Static(someScope(t)), opt)
	return serve(t, s, nil)
}

// Pointers, slices and maps, at any depth, are published as plain types, not
// nullable unions.
func TestAddToolPlainTypes(t *testing.T) {
	cs := connectOpt(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var in struct {
		Properties map[string]struct {
			Type  any `json:"type"`
			Items *struct {
				Properties map[string]struct {
					Type any `json:"type"`
				} `json:"properties"`
			} `json:"items"`
		} `json:"properties"`
	}
	b, _ := json.Marshal(res.Tools[0].InputSchema)
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for name, p := range in.Properties {
		got[name] = p.Type
	}
	got["nested.lines"] = in.Properties["nested"].Items.Properties["lines"].Type
	want := map[string]any{
		"context": "integer", "files": "array", "flag": "boolean", "ratio": "number", "kind": "string",
		"nested": "array", "labels": "object", "nested.lines": "array",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("property types mismatch (-want +got):\n%s\nschema: %s", diff, b)
	}
}

// An omitted or null pointer argument stays nil, and 0 stays 0; a value of
// the wrong type gets an error naming the argument and the type it needs.
func TestAddToolArguments(t *testing.T) {
	cs := connectOpt(t)
	for _, tt := range []struct {
		name    string
		args    string
		want    string // structuredContent
		wantErr string // substring of the isError text
	}{
		{name: "omitted", args: `{}`, want: `{"context":"absent","files":0}`},
		{name: "null is absent", args: `{"context":null,"files":null}`, want: `{"context":"absent","files":0}`},
		{name: "zero is kept", args: `{"context":0}`, want: `{"context":"","files":0}`},
		{name: "two", args: `{"context":2,"files":["a","b"]}`, want: `{"context":"xx","files":2}`},
		{name: "quoted integer", args: `{"context":"1"}`,
			wantErr: `argument "context" must be an integer, not the string "1" (send it unquoted, e.g. 3)`},
		{name: "fraction for an integer", args: `{"context":1.5}`, wantErr: `argument "context" must be an integer, not a number (a whole number)`},
		{name: "quoted boolean", args: `{"flag":"true"}`, wantErr: `argument "flag" must be a boolean, not the string "true" (send it unquoted, e.g. true)`},
		{name: "string for a list", args: `{"files":"a.go"}`, wantErr: `argument "files" must be an array, not the string "a.go" (send a JSON list, e.g. ["a.go"])`},
		{name: "integer for a number", args: `{"ratio":2}`, want: `{"context":"absent","files":0}`},
		{name: "value outside the enum", args: `{"kind":"c"}`, wantErr: `argument "kind" must be one of a, b, not the string "c"`},
		{name: "nested wrong type is still refused", args: `{"nested":[{"lines":"1"}]}`, wantErr: `validating "arguments"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "opt", Arguments: json.RawMessage(tt.args)})
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
			if res.IsError || text != tt.want {
				t.Errorf("got %q (isError %v), want %s", text, res.IsError, tt.want)
			}
		})
	}
}
