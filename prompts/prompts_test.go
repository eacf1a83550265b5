package prompts

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/tools/txtar"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const fixture = `
-- main.go --
package main

func main() {}
-- README.md --
# demo
-- sub/x.go --
package sub
-- empty/keep --
-- big.txt --
line one of a file that is longer than the small cap
line two of a file that is longer than the small cap
line three
`

const unstagedDiff = `diff --git a/main.go b/main.go
--- a/main.go
+++ b/main.go
@@ -1,3 +1,5 @@
 package main
 
-func main() {}
+func main() {
+	println("hi")
+}
`

// tree writes the fixture (plus a binary file) to a fresh directory and returns its real path.
func tree(t *testing.T) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "project")
	for _, f := range txtar.Parse([]byte(fixture)).Files {
		writeFile(t, filepath.Join(dir, f.Name), f.Data)
	}
	writeFile(t, filepath.Join(dir, "logo.png"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"))
	return dir
}

func writeFile(t testing.TB, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// newFake knows the repository of dir (repo_path "" or dir) and one without anything staged (dir/empty).
func newFake(dir string) *fakeGit {
	return &fakeGit{
		repos: map[string]bool{"": true, dir: true, filepath.Join(dir, "empty"): true},
		diffs: map[string]string{
			diffKey("", false, ""):      unstagedDiff,
			diffKey("", true, ""):       strings.ReplaceAll(unstagedDiff, "hi", "staged"),
			diffKey(dir, false, "main"): strings.ReplaceAll(unstagedDiff, "hi", "branch"),
			diffKey("", true, "main"):   strings.ReplaceAll(unstagedDiff, "hi", "staged vs main"),
		},
		commits: map[string][2]string{
			"abc1234": {"Add greeting\n\nSay hi from main.", unstagedDiff},
		},
		logs: map[string]string{
			filepath.Join(dir, "main.go"):   "commit abc1234\nAuthor: Ann <ann@example.com>\n\n    Add greeting\n\n" + unstagedDiff,
			filepath.Join(dir, "README.md"): "",
		},
		subjects: []string{"gittools: add git_blame", "roots: refuse FIFOs\n", "", "docs: explain scopes"},
		revs:     []string{"main", "feature/x", "v1.0.0", "abc1234"},
	}
}

func newPrompts(t *testing.T, dir string, g Git, maxEmbed int) *Prompts {
	return New(Options{Scope: scope.Static(newScope(t, dir)), Git: g, MaxEmbedBytes: maxEmbed})
}

func TestGolden(t *testing.T) {
	dir := tree(t)
	g := newFake(dir)
	full := connect(t, newPrompts(t, dir, g, 0))
	small := connect(t, newPrompts(t, dir, g, 80))
	for _, tt := range []struct {
		name, prompt string
		args         map[string]string
		small        bool
	}{
		{name: "review_changes", prompt: "review_changes"},
		{name: "review_changes_staged", prompt: "review_changes", args: map[string]string{"staged": "true"}},
		{name: "review_changes_base", prompt: "review_changes", args: map[string]string{"repo_path": dir, "base": "main"}},
		{name: "review_changes_staged_base", prompt: "review_changes", args: map[string]string{"staged": "true", "base": "main"}},
		{name: "review_changes_empty", prompt: "review_changes", args: map[string]string{"repo_path": "empty"}},
		{name: "review_changes_cut", prompt: "review_changes", small: true},
		{name: "review_commit", prompt: "review_commit", args: map[string]string{"revision": "abc1234"}},
		{name: "review_file", prompt: "review_file", args: map[string]string{"path": "main.go"}},
		{name: "review_file_focus", prompt: "review_file", args: map[string]string{"path": "file://" + dir + "/main.go", "focus": "security"}},
		{name: "review_file_binary", prompt: "review_file", args: map[string]string{"path": "logo.png"}},
		{name: "review_file_cut", prompt: "review_file", args: map[string]string{"path": "big.txt"}, small: true},
		{name: "review_commit_cut", prompt: "review_commit", args: map[string]string{"revision": "abc1234"}, small: true},
		{name: "commit_message", prompt: "commit_message"},
		{name: "commit_message_cut", prompt: "commit_message", small: true},
		{name: "explain_history_cut", prompt: "explain_history", args: map[string]string{"path": "main.go"}, small: true},
		{name: "explain_history", prompt: "explain_history", args: map[string]string{"path": "main.go"}},
		{name: "explain_history_empty", prompt: "explain_history", args: map[string]string{"path": "README.md"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := full
			if tt.small {
				cs = small
			}
			res, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: tt.prompt, Arguments: tt.args})
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(res, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(bytes.ReplaceAll(got, []byte(dir), []byte("/ROOT")), '\n')
			checkGolden(t, filepath.Join("testdata", "golden", tt.name+".golden"), got)
		})
	}
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(name, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

func TestList(t *testing.T) {
	dir := tree(t)
	cs := connect(t, newPrompts(t, dir, newFake(dir), 0))
	res, err := cs.ListPrompts(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, p := range res.Prompts {
		if p.Title == "" || p.Description == "" {
			t.Errorf("prompt %s lacks a title or description", p.Name)
		}
		got[p.Name] = []string{}
		for _, a := range p.Arguments {
			if a.Title == "" || a.Description == "" {
				t.Errorf("argument %s of %s lacks a title or description", a.Name, p.Name)
			}
			name := a.Name
			if a.Required {
				name += "*"
			}
			got[p.Name] = append(got[p.Name], name)
		}
	}
	want := map[string][]string{
		"review_changes":    {"repo_path", "staged", "base"},
		"review_commit":     {"repo_path", "revision*"},
		"review_file":       {"path*", "focus"},
		"commit_message":    {"repo_path"},
		"explain_history":   {"path*"},
		"resolve_conflicts": {"repo_path"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("prompts mismatch (-want +got):\n%s", diff)
	}
}

func TestGitCalls(t *testing.T) {
	dir := tree(t)
	g := newFake(dir)
	cs := connect(t, newPrompts(t, dir, g, 0))
	ctx := context.Background()
	for _, p := range []*mcp.GetPromptParams{
		{Name: "commit_message"},
		{Name: "explain_history", Arguments: map[string]string{"path": "main.go"}},
		{Name: "review_commit", Arguments: map[string]string{"revision": "abc1234"}},
	} {
		if _, err := cs.GetPrompt(ctx, p); err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
	}
	want := []string{`Diff("", true, "")`, `Subjects("", 20)`, fmt.Sprintf("FileLog(%q, 10)", filepath.Join(dir, "main.go")), `Show("", "abc1234")`}
	if diff := cmp.Diff(want, g.calls); diff != "" {
		t.Errorf("calls mismatch (-want +got):\n%s", diff)
	}
}

func TestFileRoot(t *testing.T) {
	file := filepath.Join(tree(t), "main.go")
	set, err := roots.NewSet([]string{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, New(Options{Scope: scope.Static(set.Scope()), Git: &fakeGit{}}))
	res, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "review_file", Arguments: map[string]string{"path": file}})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Messages[1].Content.(*mcp.EmbeddedResource).Resource
	if got.URI != roots.URI(file) || got.Text != "package main\n\nfunc main() {}\n" {
		t.Errorf("embedded %s %q, want %s and the file's text", got.URI, got.Text, roots.URI(file))
	}
	_, err = cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "review_file", Arguments: map[string]string{"path": filepath.Join(filepath.Dir(file), "README.md")}})
	if err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("sibling of a file root: error %v, want not found", err)
	}
}
