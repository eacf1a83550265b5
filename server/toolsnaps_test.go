package server

// Snapshots of the public contract, in the spirit of github-mcp-server's
// internal/toolsnaps: one file per tool (testdata/toolsnaps/<tool>.snap) and
// per prompt (testdata/promptsnaps/<prompt>.snap), as a client sees it over
// tools/list and prompts/list from a read-write server. A changed name,
// argument, description, annotation or schema fails with a diff; run with
// -update to accept the change, and review the diff like an API change.

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the tool and prompt snapshots")

// toolSnap is the contract of one tool.
type toolSnap struct {
	Name         string               `json:"name"`
	Title        string               `json:"title,omitempty"`
	Description  string               `json:"description"`
	Annotations  *mcp.ToolAnnotations `json:"annotations,omitempty"`
	InputSchema  any                  `json:"inputSchema"`
	OutputSchema any                  `json:"outputSchema,omitempty"`
}

// promptSnap is the contract of one prompt.
type promptSnap struct {
	Name        string                `json:"name"`
	Title       string                `json:"title,omitempty"`
	Description string                `json:"description"`
	Arguments   []*mcp.PromptArgument `json:"arguments"`
}

// listContract returns the tools and prompts of a read-write server.
func listContract(t *testing.T) ([]*mcp.Tool, []*mcp.Prompt) {
	t.Helper()
	cs, _, _ := connect(t, Config{Roots: []string{servertest.RealTemp(t)}}, servertest.Legacy)
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tools.Tools, prompts.Prompts
}

func TestToolSnapshots(t *testing.T) {
	tools, prompts := listContract(t)
	snaps := make(map[string]any)
	for _, tool := range tools {
		snaps[tool.Name] = toolSnap{tool.Name, tool.Title, tool.Description, tool.Annotations, tool.InputSchema, tool.OutputSchema}
	}
	checkSnapshots(t, filepath.Join("testdata", "toolsnaps"), snaps)

	snaps = make(map[string]any)
	for _, p := range prompts {
		snaps[p.Name] = promptSnap{p.Name, p.Title, p.Description, p.Arguments}
	}
	checkSnapshots(t, filepath.Join("testdata", "promptsnaps"), snaps)
}

// checkSnapshots compares (or, with -update, writes) dir/<name>.snap for
// every snapshot, and reports snapshot files whose tool or prompt is gone.
func checkSnapshots(t *testing.T, dir string, snaps map[string]any) {
	t.Helper()
	problems, err := snapshotProblems(dir, snaps, *update)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// snapshotProblems returns what differs between snaps and the files in dir;
// with write, it makes the files match instead.
func snapshotProblems(dir string, snaps map[string]any, write bool) ([]string, error) {
	if write {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(snaps)) {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // keep <email> readable
		enc.SetIndent("", "  ")
		if err := enc.Encode(snaps[name]); err != nil {
			return nil, err
		}
		path := filepath.Join(dir, name+".snap")
		if write {
			if err := os.WriteFile(path, b.Bytes(), 0o666); err != nil {
				return nil, err
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: no snapshot (new? run go test -run TestToolSnapshots -update): %v", name, err))
			continue
		}
		if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(b.String(), "\n")); diff != "" {
			problems = append(problems, fmt.Sprintf("%s changed; if intended, run with -update (-want +got):\n%s", path, diff))
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.snap"))
	if err != nil {
		return nil, err
	}
	for _, path := range files {
		if _, ok := snaps[strings.TrimSuffix(filepath.Base(path), ".snap")]; ok {
			continue
		}
		if write {
			if err := os.Remove(path); err != nil {
				return nil, err
			}
		} else {
			problems = append(problems, fmt.Sprintf("%s: snapshot of something the server no longer offers (run with -update to remove it)", path))
		}
	}
	return problems, nil
}

func TestSnapshotProblems(t *testing.T) {
	dir := t.TempDir()
	snaps := map[string]any{
		"a": toolSnap{Name: "a", Description: "first", InputSchema: map[string]any{"type": "object"}},
		"b": promptSnap{Name: "b", Description: "second"},
	}
	if _, err := snapshotProblems(dir, snaps, true); err != nil {
		t.Fatal(err)
	}
	if problems, err := snapshotProblems(dir, snaps, false); err != nil || len(problems) != 0 {
		t.Fatalf("fresh snapshots: %q, %v", problems, err)
	}
	changed := map[string]any{
		"a": toolSnap{Name: "a", Description: "first, reworded", InputSchema: map[string]any{"type": "object"}},
		"c": promptSnap{Name: "c"},
	}
	problems, err := snapshotProblems(dir, changed, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`"first, reworded"`, "c: no snapshot", "b.snap: snapshot of something the server no longer offers"}
	if len(problems) != len(want) {
		t.Fatalf("got %d problems, want %d: %q", len(problems), len(want), problems)
	}
	for i, w := range want {
		if !strings.Contains(problems[i], w) {
			t.Errorf("problem %d = %q, want it to mention %q", i, problems[i], w)
		}
	}
}

// The argument names clients and users already rely on. A snapshot can be
// regenerated; this list changes only by decision.
var argumentContract = map[string][]string{
	"git_status":        {"repo_path"},
	"git_log":           {"repo_path", "max_count", "revision", "path", "author", "since", "until", "grep"},
	"git_diff":          {"repo_path", "staged", "target", "path", "context_lines", "stat_only"},
	"git_show":          {"repo_path", "revision", "path"},
	"git_add":           {"repo_path", "files"},
	"git_reset":         {"repo_path", "files"},
	"git_commit":        {"repo_path", "message"},
	"git_branch":        {"repo_path", "branch_type"},
	"git_create_branch": {"repo_path", "branch_name", "base_branch"},
	"git_checkout":      {"repo_path", "branch"},
	"git_blame":         {"repo_path", "path", "revision", "start_line", "end_line"},
	"git_tag":           {"repo_path", "name", "message", "revision"},
	"git_init":          {"repo_path"},
	"list_roots":        {},
	"git_merge":         {"repo_path", "revision", "ff", "message", "conflict_style", "allow_unrelated_histories", "action"},
	"git_cherry_pick":   {"repo_path", "revisions", "action", "no_commit"},
	"git_revert":        {"repo_path", "revisions", "action", "no_commit"},
	"git_stash":         {"repo_path", "action", "message", "include_untracked", "paths", "index"},
	"git_restore":       {"repo_path", "paths", "source", "staged", "dry_run"},
}

var promptContract = map[string][]string{
	"review_changes":    {"repo_path", "staged", "base"},
	"review_commit":     {"repo_path", "revision"},
	"review_file":       {"path", "focus"},
	"commit_message":    {"repo_path"},
	"explain_history":   {"path"},
	"resolve_conflicts": {"repo_path"},
}

func TestArgumentContract(t *testing.T) {
	tools, prompts := listContract(t)
	got := make(map[string][]string)
	for _, tool := range tools {
		if _, ok := argumentContract[tool.Name]; ok {
			got[tool.Name] = propertyNames(t, tool.InputSchema)
		}
	}
	if diff := cmp.Diff(sortedValues(argumentContract), got); diff != "" {
		t.Errorf("tool arguments mismatch (-want +got):\n%s", diff)
	}
	got = make(map[string][]string)
	for _, p := range prompts {
		names := []string{}
		for _, a := range p.Arguments {
			names = append(names, a.Name)
		}
		slices.Sort(names)
		got[p.Name] = names
	}
	if diff := cmp.Diff(sortedValues(promptContract), got); diff != "" {
		t.Errorf("prompt arguments mismatch (-want +got):\n%s", diff)
	}
}

// propertyNames returns the sorted property names of a JSON object schema.
func propertyNames(t *testing.T, schema any) []string {
	t.Helper()
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	remarshal(t, schema, &s)
	names := []string{}
	for name := range s.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func sortedValues(m map[string][]string) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, v := range m {
		v = append([]string{}, v...)
		slices.Sort(v)
		out[k] = v
	}
	return out
}

// Every tool explains itself to the model: a title, a description, a
// description for each argument, explicit annotations, and an object output
// schema (structured content is always an object).
func TestToolSchemasDescribed(t *testing.T) {
	tools, prompts := listContract(t)
	for _, tool := range tools {
		var in, out struct {
			Type       string `json:"type"`
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		}
		remarshal(t, tool.InputSchema, &in)
		remarshal(t, tool.OutputSchema, &out)
		switch {
		case tool.Title == "" || tool.Description == "":
			t.Errorf("%s: title %q, description %q: both are needed", tool.Name, tool.Title, tool.Description)
		case in.Type != "object":
			t.Errorf("%s: input schema type %q, want object", tool.Name, in.Type)
		case tool.OutputSchema == nil || out.Type != "object":
			t.Errorf("%s: output schema type %q, want object", tool.Name, out.Type)
		case tool.Annotations == nil || tool.Annotations.OpenWorldHint == nil || *tool.Annotations.OpenWorldHint:
			t.Errorf("%s: annotations %+v, want openWorldHint false", tool.Name, tool.Annotations)
		case !tool.Annotations.ReadOnlyHint && tool.Annotations.DestructiveHint == nil:
			t.Errorf("%s: a writing tool must say whether it is destructive", tool.Name)
		}
		for name, prop := range in.Properties {
			if prop.Description == "" {
				t.Errorf("%s: argument %s has no description", tool.Name, name)
			}
		}
	}
	for _, p := range prompts {
		if p.Description == "" {
			t.Errorf("prompt %s has no description", p.Name)
		}
		for _, a := range p.Arguments {
			if a.Description == "" {
				t.Errorf("prompt %s: argument %s has no description", p.Name, a.Name)
			}
		}
	}
}

func remarshal(t *testing.T, from, to any) {
	t.Helper()
	data, err := json.Marshal(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, to); err != nil {
		t.Fatal(err)
	}
}

// Every tool's output is encoded by jsonenc's compiled encoders, not handed
// to encoding/json (same bytes, about half as fast: bench/RESULTS.md,
// "Large answers").
func TestToolOutputsCompile(t *testing.T) {
	listContract(t)
	if slow := scope.SlowOutputs(); len(slow) > 0 {
		t.Errorf("the outputs of %q go to encoding/json: see jsonenc's package doc for what it compiles", slow)
	}
}
