package prompts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

func TestRefusals(t *testing.T) {
	dir := tree(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.txt"), []byte("secret"))
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "escape.txt")); err != nil {
		t.Fatal(err)
	}
	g := newFake(dir)
	g.repos[outside] = true // a repository outside the roots: the prompts must refuse it themselves
	cs := connect(t, newPrompts(t, dir, g, 0))
	for _, tt := range []struct {
		name, prompt string
		args         map[string]string
		wantErr      string
	}{
		{"file missing arg", "review_file", nil, `prompt review_file: missing required argument "path"`},
		{"file empty arg", "review_file", map[string]string{"path": ""}, `missing required argument "path"`},
		{"file outside", "review_file", map[string]string{"path": filepath.Join(outside, "secret.txt")}, `file "` + filepath.Join(outside, "secret.txt") + `" not found`},
		{"file outside relative", "review_file", map[string]string{"path": "../x"}, `file "../x" not found`},
		{"file outside uri", "review_file", map[string]string{"path": "file:///etc/passwd"}, `file "file:///etc/passwd" not found`},
		{"file missing", "review_file", map[string]string{"path": "nope.go"}, `file "nope.go" not found`},
		{"file symlink escape", "review_file", map[string]string{"path": "escape.txt"}, `file "escape.txt" not found`},
		{"file directory", "review_file", map[string]string{"path": "sub"}, `"sub" is a directory, not a file`},
		{"commit missing revision", "review_commit", map[string]string{"repo_path": dir}, `prompt review_commit: missing required argument "revision"`},
		{"commit unknown revision", "review_commit", map[string]string{"revision": "deadbeef"}, `prompt review_commit: unknown revision "deadbeef"`},
		{"commit outside", "review_commit", map[string]string{"repo_path": outside, "revision": "abc1234"}, `no git repository found at "` + outside + `"`},
		{"changes outside", "review_changes", map[string]string{"repo_path": "/"}, `prompt review_changes: no git repository found at "/"`},
		{"changes not a repo", "review_changes", map[string]string{"repo_path": "sub"}, `prompt review_changes: no git repository found at "sub"`},
		{"changes bad staged", "review_changes", map[string]string{"staged": "maybe"}, `staged must be "true" or "false", not "maybe"`},
		{"changes staged 1", "review_changes", map[string]string{"staged": "1"}, `staged must be "true" or "false", not "1"`},
		{"changes staged TRUE", "review_changes", map[string]string{"staged": "TRUE"}, `staged must be "true" or "false", not "TRUE"`},
		{"changes unknown base", "review_changes", map[string]string{"base": "nosuch"}, `unknown revision "nosuch"`},
		{"message nothing staged", "commit_message", map[string]string{"repo_path": "empty"}, `nothing is staged in ` + filepath.Join(dir, "empty")},
		{"message outside", "commit_message", map[string]string{"repo_path": outside}, `no git repository found at "` + outside + `"`},
		{"history missing arg", "explain_history", nil, `prompt explain_history: missing required argument "path"`},
		{"history outside", "explain_history", map[string]string{"path": "/etc/passwd"}, `prompt explain_history: file "/etc/passwd" not found or not in a Git repository`},
		{"history directory", "explain_history", map[string]string{"path": "sub"}, `prompt explain_history: "sub" is a directory, not a file`},
		{"history not in a repo", "explain_history", map[string]string{"path": "sub/x.go"}, `prompt explain_history: file "sub/x.go" not found or not in a Git repository`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: tt.prompt, Arguments: tt.args})
			if err == nil {
				t.Fatalf("got %d messages, want error %q", len(res.Messages), tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q, want it to contain %q", err, tt.wantErr)
			}
			if code := rpcCode(err); code != jsonrpc.CodeInvalidParams {
				t.Errorf("error code %d, want %d", code, jsonrpc.CodeInvalidParams)
			}
		})
	}
}

// TestOutsideReadsLikeMissing checks that a client cannot tell a path outside the roots from a missing one.
func TestOutsideReadsLikeMissing(t *testing.T) {
	dir := tree(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "real.txt"), []byte("exists"))
	cs := connect(t, newPrompts(t, dir, newFake(dir), 0))
	for _, prompt := range []string{"review_file", "explain_history"} {
		message := func(path string) string {
			_, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: prompt, Arguments: map[string]string{"path": path}})
			if err == nil {
				t.Fatalf("%s %s: no error", prompt, path)
			}
			return strings.ReplaceAll(err.Error(), path, "PATH")
		}
		outsideMsg := message(filepath.Join(outside, "real.txt"))
		missingMsg := message(filepath.Join(dir, "missing.txt"))
		if outsideMsg != missingMsg {
			t.Errorf("%s: outside %q, missing %q: want the same", prompt, outsideMsg, missingMsg)
		}
	}
	for _, prompt := range []string{"review_changes", "review_commit", "commit_message"} {
		message := func(repoPath string) string {
			args := map[string]string{"repo_path": repoPath, "revision": "abc1234"}
			_, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: prompt, Arguments: args})
			if err == nil {
				t.Fatalf("%s %s: no error", prompt, repoPath)
			}
			return strings.ReplaceAll(err.Error(), repoPath, "PATH")
		}
		outsideMsg := message(outside)
		notRepoMsg := message(filepath.Join(dir, "sub"))
		if outsideMsg != notRepoMsg {
			t.Errorf("%s: outside %q, not a repository %q: want the same", prompt, outsideMsg, notRepoMsg)
		}
	}
}

func TestNoRoots(t *testing.T) {
	p := New(Options{Scope: scope.Static(nil), Git: &fakeGit{}})
	cs := connect(t, p)
	_, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "review_changes"})
	if code := rpcCode(err); code != jsonrpc.CodeInvalidParams {
		t.Errorf("no roots: error %v (code %d), want code %d", err, code, jsonrpc.CodeInvalidParams)
	}
	if err == nil || !strings.Contains(err.Error(), "started without a directory") || !strings.Contains(err.Error(), "grove --root /path/to/project") {
		t.Errorf("no roots: error %v, want it to say no directory was given and how to give one", err)
	}
}

// Without repo_path, a prompt works on the only root; with several it names
// them instead of picking the first.
func TestRepoPathDefault(t *testing.T) {
	one, two := t.TempDir(), t.TempDir()
	for _, tt := range []struct {
		dirs    []string
		wantErr string
	}{
		{[]string{one}, ""},
		{[]string{one, two}, "repo_path is needed: grove has 2 roots, " + roots.URI(one)},
	} {
		cs := connect(t, New(Options{Scope: scope.Static(newScope(t, tt.dirs...)), Git: newFake(one)}))
		_, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "commit_message"})
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%d roots: %v", len(tt.dirs), err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%d roots: error %v, want %q", len(tt.dirs), err, tt.wantErr)
		}
	}
}

// askingScope wants the client's roots first, as for a modern client that has not sent them yet.
type askingScope struct{ asked *int }

func (s askingScope) Scope(mcp.Request) (*roots.Scope, mcp.InputRequestMap) {
	*s.asked++
	return nil, mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}
}

// TestMissingArgumentBeforeRoots checks that a request missing a required argument is refused before the client
// is asked for its roots.
func TestMissingArgumentBeforeRoots(t *testing.T) {
	asked := 0
	cs := connect(t, New(Options{Scope: askingScope{&asked}, Git: &fakeGit{}}))
	_, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "review_commit"})
	if code := rpcCode(err); code != jsonrpc.CodeInvalidParams || !strings.Contains(err.Error(), `missing required argument "revision"`) {
		t.Errorf("error %v (code %d), want a missing argument refusal", err, code)
	}
	if asked != 0 {
		t.Errorf("the scope was asked %d times, want 0", asked)
	}
}

func TestCompleteNoRoots(t *testing.T) {
	cs := connect(t, New(Options{Scope: scope.Static(nil), Git: &fakeGit{}}))
	for _, arg := range []string{"repo_path", "path", "revision"} {
		res, err := cs.Complete(t.Context(), completeReq("review_commit", arg, "x", nil))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Completion.Values) != 0 {
			t.Errorf("%s: values %q with no roots, want none", arg, res.Completion.Values)
		}
	}
}

// A one-byte binary file is "1 byte", not "1 bytes".
func TestBinarySizeGrammar(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "one.bin"), []byte{0})
	cs := connect(t, New(Options{Scope: scope.Static(newScope(t, dir)), Git: newFake(dir)}))
	res, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "review_file", Arguments: map[string]string{"path": "one.bin"}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Messages[0].Content.(*mcp.TextContent).Text
	if !strings.Contains(text, "(1 byte, ") {
		t.Errorf("review_file of a 1-byte binary: %q, want it to say 1 byte", text)
	}
}
