package server

// Rules every input schema keeps, checked over tools/list in both protocol
// eras, so that clients that build a call from a schema (the MCP Inspector,
// form-based clients, models) can fill every argument:
//
//   - no "type" is an array (a nullable union such as ["null", "integer"]),
//     at any depth;
//   - an argument with a fixed set of values lists them in "enum";
//   - a path argument that one tool (or prompt) lets the client leave out is
//     not required by another, unless mustName says why that one must be
//     given; and a path argument that may be left out says what leaving it
//     out means.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pathArgs are the names of arguments that name a file, a directory or a
// repository.
var pathArgs = map[string]bool{"path": true, "paths": true, "repo_path": true, "files": true, "source": true, "destination": true}

// mustName lists the required path arguments that have a namesake another
// tool or prompt lets the client leave out, and why these cannot default.
var mustName = map[string]string{
	"read_file.path":              "the file to read",
	"write_file.path":             "the file to write",
	"edit_file.path":              "the file to edit",
	"create_directory.path":       "the directory to create",
	"file_info.path":              "the file to describe",
	"git_blame.path":              "the file to blame",
	"git_add.files":               "what to stage: git add without a pathspec stages nothing",
	"prompt:review_file.path":     "the file to review",
	"prompt:explain_history.path": "the file whose history to explain",
	"git_restore.paths":           "what to restore: discarding every change of the worktree at once is too easy to do by mistake",
	"move_file.source":            "the file or directory to move (git_restore's source is a revision, defaulting to the index)",
	"read_files.paths":            "the files to read (git_stash's paths narrow a stash, which defaults to every change)",
}

// schemaArg is one argument of a tool or prompt, as the schema rules see it.
type schemaArg struct {
	owner    string // "git_diff", or "prompt:review_file"
	name     string
	required bool
	desc     string
}

func TestToolSchemasFillable(t *testing.T) {
	var eraTools [][]string
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			cs, _, _ := connect(t, Config{Roots: []string{servertest.RealTemp(t)}}, era)
			tools, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			prompts, err := cs.ListPrompts(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(tools.Tools) < 20 {
				t.Fatalf("tools/list has %d tools; a read-write server offers more", len(tools.Tools))
			}
			for _, p := range schemaProblems(t, tools.Tools, prompts.Prompts) {
				t.Error(p)
			}
			if err := scope.CheckSchemas(tools.Tools); err != nil { // AddTool resolves them only when called
				t.Error(err)
			}
			var names []string
			for _, tool := range tools.Tools {
				names = append(names, tool.Name)
			}
			slices.Sort(names)
			eraTools = append(eraTools, names)
		})
	}
	if len(eraTools) == 2 {
		if diff := cmp.Diff(eraTools[0], eraTools[1]); diff != "" {
			t.Errorf("the eras list different tools (-legacy +modern):\n%s", diff)
		}
	}
}

// schemaProblems returns every broken rule in the tools' input schemas and
// the prompts' arguments.
func schemaProblems(t *testing.T, tools []*mcp.Tool, prompts []*mcp.Prompt) []string {
	t.Helper()
	var problems []string
	var args []schemaArg
	for _, tool := range tools {
		var schema map[string]any
		remarshal(t, tool.InputSchema, &schema)
		problems = append(problems, walkSchema(tool.Name, "", schema)...)
		required, _ := schema["required"].([]any)
		props, _ := schema["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			p, _ := props[name].(map[string]any)
			desc, _ := p["description"].(string)
			args = append(args, schemaArg{tool.Name, name, slices.Contains(required, any(name)), desc})
		}
	}
	for _, p := range prompts {
		for _, a := range p.Arguments {
			args = append(args, schemaArg{"prompt:" + p.Name, a.Name, a.Required, a.Description})
		}
	}
	return append(problems, pathProblems(args)...)
}

// enumLike matches descriptions that list an argument's values: "one of a,
// b or c", or "local (default), remote or all".
var enumLike = regexp.MustCompile(`(?i)\bone of\b|^\w+ \(default\)(, \w+)* or \w+$`)

// walkSchema returns the problems of schema s, at JSON pointer at, and of
// every schema nested in it.
func walkSchema(tool, at string, s map[string]any) []string {
	var problems []string
	if typ, ok := s["type"].([]any); ok {
		problems = append(problems, fmt.Sprintf("%s: %s has the union type %v; use a plain type the client may omit", tool, pointer(at), typ))
	}
	if desc, _ := s["description"].(string); enumLike.MatchString(desc) && s["enum"] == nil && !hasItemsEnum(s) {
		problems = append(problems, fmt.Sprintf("%s: %s lists its values (%q) but has no enum", tool, pointer(at), desc))
	}
	for _, key := range []string{"properties", "$defs", "definitions", "patternProperties"} {
		m, _ := s[key].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(m)) {
			if sub, ok := m[name].(map[string]any); ok {
				problems = append(problems, walkSchema(tool, at+"/"+key+"/"+name, sub)...)
			}
		}
	}
	for _, key := range []string{"items", "additionalProperties", "not", "contains"} {
		if sub, ok := s[key].(map[string]any); ok {
			problems = append(problems, walkSchema(tool, at+"/"+key, sub)...)
		}
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		list, _ := s[key].([]any)
		for i, v := range list {
			if sub, ok := v.(map[string]any); ok {
				problems = append(problems, walkSchema(tool, fmt.Sprintf("%s/%s/%d", at, key, i), sub)...)
			}
		}
	}
	return problems
}

func hasItemsEnum(s map[string]any) bool {
	items, _ := s["items"].(map[string]any)
	return items != nil && items["enum"] != nil
}

func pointer(at string) string {
	if at == "" {
		return "the input schema"
	}
	return at
}

// pathProblems returns the path arguments that are required where a
// namesake is optional (and not excused by mustName), and the optional ones
// whose description does not say what leaving them out means.
func pathProblems(args []schemaArg) []string {
	optional := make(map[string][]string) // argument name → owners that let it be left out
	for _, a := range args {
		if pathArgs[a.name] && !a.required {
			optional[a.name] = append(optional[a.name], a.owner)
		}
	}
	var problems []string
	for _, a := range args {
		if !pathArgs[a.name] {
			continue
		}
		key := a.owner + "." + a.name
		switch {
		case a.required && len(optional[a.name]) > 0 && mustName[key] == "":
			problems = append(problems, fmt.Sprintf("%s is required, but %s let it be left out: default it the same way, or say in mustName why it cannot",
				key, strings.Join(optional[a.name], ", ")))
		case !a.required && !saysDefault(a.desc):
			problems = append(problems, fmt.Sprintf("%s may be left out, but its description %q does not say what that means (\"default: …\")", key, a.desc))
		}
	}
	return problems
}

// saysDefault reports whether a description says what an omitted argument
// means: its default, that it only filters, or what none of it does.
func saysDefault(desc string) bool {
	d := strings.ToLower(desc)
	return strings.Contains(d, "default") || strings.HasPrefix(d, "only ") || strings.Contains(d, "none ")
}

// The rules find what they are meant to find.
func TestSchemaProblemsCatches(t *testing.T) {
	obj := func(props string, required ...string) json.RawMessage {
		req, _ := json.Marshal(required)
		return json.RawMessage(`{"type":"object","required":` + string(req) + `,"properties":{` + props + `}}`)
	}
	const (
		repoOpt  = `"repo_path":{"type":"string","description":"the repository (default: the only root)"}`
		pathOpt  = `"path":{"type":"string","description":"directory (default: the only root)"}`
		pathReq  = `"path":{"type":"string","description":"directory"}`
		contextN = `"context_lines":{"type":["null","integer"],"description":"lines of context"}`
	)
	for _, tt := range []struct {
		name    string
		tools   map[string]json.RawMessage
		prompts []*mcp.Prompt
		want    []string // substrings, one per problem, in order
	}{
		{name: "clean", tools: map[string]json.RawMessage{"grep": obj(pathOpt), "git_status": obj(repoOpt)}},
		{name: "nullable union", tools: map[string]json.RawMessage{"git_diff": obj(repoOpt + "," + contextN)},
			want: []string{"git_diff: /properties/context_lines has the union type [null integer]"}},
		{name: "nullable union in nested items", tools: map[string]json.RawMessage{
			"edit_file": obj(`"edits":{"type":"array","description":"x","items":{"type":"object","properties":{"n":{"type":["null","integer"],"description":"n"}}}}`)},
			want: []string{"edit_file: /properties/edits/items/properties/n has the union type"}},
		{name: "union at the top", tools: map[string]json.RawMessage{"odd": json.RawMessage(`{"type":["object","null"]}`)},
			want: []string{"odd: the input schema has the union type"}},
		{name: "required path that another tool defaults", tools: map[string]json.RawMessage{
			"grep": obj(pathOpt), "list_directory": obj(pathReq, "path")},
			want: []string{"list_directory.path is required, but grep let it be left out"}},
		{name: "required path excused", tools: map[string]json.RawMessage{
			"grep": obj(pathOpt), "read_file": obj(pathReq, "path")}},
		{name: "required repo_path in a prompt", tools: map[string]json.RawMessage{"git_status": obj(repoOpt)},
			prompts: []*mcp.Prompt{{Name: "commit_message", Arguments: []*mcp.PromptArgument{{Name: "repo_path", Description: "the repository", Required: true}}}},
			want:    []string{"prompt:commit_message.repo_path is required, but git_status let it be left out"}},
		{name: "optional path without its default", tools: map[string]json.RawMessage{"search_files": obj(`"path":{"type":"string","description":"directory to search"}`)},
			want: []string{`search_files.path may be left out, but its description "directory to search" does not say`}},
		{name: "one of without enum", tools: map[string]json.RawMessage{
			"git_branch": obj(`"branch_type":{"type":"string","description":"one of local, remote, all"}`)},
			want: []string{"git_branch: /properties/branch_type lists its values"}},
		{name: "default-first list without enum", tools: map[string]json.RawMessage{
			"git_branch": obj(`"branch_type":{"type":"string","description":"local (default), remote or all"}`)},
			want: []string{"git_branch: /properties/branch_type lists its values"}},
		{name: "list with enum", tools: map[string]json.RawMessage{
			"git_branch": obj(`"branch_type":{"type":"string","enum":["local","remote","all"],"description":"local (default), remote or all"}`)}},
		{name: "list of enums", tools: map[string]json.RawMessage{
			"pick": obj(`"kinds":{"type":"array","items":{"type":"string","enum":["a","b"]},"description":"any one of a or b"}`)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var tools []*mcp.Tool
			for _, name := range slices.Sorted(maps.Keys(tt.tools)) {
				tools = append(tools, &mcp.Tool{Name: name, InputSchema: tt.tools[name]})
			}
			got := schemaProblems(t, tools, tt.prompts)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d problems, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}
