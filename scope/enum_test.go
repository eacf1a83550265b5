package scope_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

type pickIn struct {
	Color  string   `json:"color,omitempty" jsonschema:"red (default), green or blue" enum:"red,green,blue"`
	Shades []string `json:"shades,omitempty" jsonschema:"any of light or dark" enum:"light,dark"`
	Nested []struct {
		Kind string `json:"kind" jsonschema:"a or b" enum:"a,b"`
	} `json:"nested,omitempty" jsonschema:"items with a kind"`
	Free string `json:"free,omitempty" jsonschema:"anything"`
}

type pickOut struct {
	Color string `json:"color"`
}

func pick(_ context.Context, _ *mcp.CallToolRequest, _ *roots.Scope, in pickIn) (*mcp.CallToolResult, pickOut, error) {
	return nil, pickOut{Color: in.Color}, nil
}

// An enum tag becomes the property's enum, on lists' items and in nested structs too, and the input
// validation refuses every other value, the empty string included.
func TestAddToolEnums(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	scope.AddTool(s, &mcp.Tool{Name: "pick", Description: "pick"}, scope.Static(someScope(t)), pick)
	cs := serve(t, s, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schema, _ := json.Marshal(res.Tools[0].InputSchema)
	for _, want := range []string{`"enum":["red","green","blue"]`, `"enum":["light","dark"]`, `"enum":["a","b"]`} {
		if !strings.Contains(string(schema), want) {
			t.Errorf("input schema %s lacks %s", schema, want)
		}
	}
	if strings.Count(string(schema), `"enum"`) != 3 {
		t.Errorf("input schema %s: want exactly three enums", schema)
	}
	for _, tt := range []struct {
		args    map[string]any
		wantErr bool
	}{
		{map[string]any{}, false},
		{map[string]any{"color": "green", "shades": []string{"dark"}, "nested": []any{map[string]any{"kind": "b"}}}, false},
		{map[string]any{"color": ""}, true},
		{map[string]any{"color": "Red"}, true},
		{map[string]any{"shades": []string{"light", "grey"}}, true},
		{map[string]any{"nested": []any{map[string]any{"kind": ""}}}, true},
		{map[string]any{"free": ""}, false},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "pick", Arguments: tt.args})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError != tt.wantErr {
			t.Errorf("pick %v: isError %v, want %v (%+v)", tt.args, res.IsError, tt.wantErr, res.Content)
		}
	}
}

func TestRefuseTilde(t *testing.T) {
	for _, tt := range []struct {
		arg     string
		refused bool
	}{
		{"~", true}, {"~/newrepo", true}, {"~user", true}, {"~user/x", true}, {"~~", true},
		{"", false}, {"/abs/~/x", false}, {"./~name", false}, {"a~b", false}, {"file:///home/u/x", false},
	} {
		err := scope.RefuseTilde(tt.arg)
		if (err != nil) != tt.refused {
			t.Errorf("RefuseTilde(%q) = %v, want refused %v", tt.arg, err, tt.refused)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "paths are not shell-expanded: ") {
			t.Errorf("RefuseTilde(%q) = %q, want it to start with \"paths are not shell-expanded: \"", tt.arg, err)
		}
	}
}
