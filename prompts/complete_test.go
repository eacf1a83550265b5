package prompts

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

func completeReq(prompt, arg, value string, ctxArgs map[string]string) *mcp.CompleteParams {
	p := &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: prompt},
		Argument: mcp.CompleteParamsArgument{Name: arg, Value: value},
	}
	if ctxArgs != nil {
		p.Context = &mcp.CompleteContext{Arguments: ctxArgs}
	}
	return p
}

func TestComplete(t *testing.T) {
	dir := tree(t)
	writeFile(t, filepath.Join(dir, ".gitignore"), []byte("*.log\nbuild/\n"))
	writeFile(t, filepath.Join(dir, "debug.log"), nil)
	writeFile(t, filepath.Join(dir, "build", "out.bin"), nil)
	writeFile(t, filepath.Join(dir, "sub", "deeper", "y.go"), nil)
	outside := t.TempDir()
	g := newFake(dir)
	g.repos[outside] = true // a repository outside the roots: completion must not reach it
	cs := connect(t, newPrompts(t, dir, g, 0))
	abs := func(rel string) string { return filepath.Join(dir, rel) }
	for _, tt := range []struct {
		name, prompt, arg, value string
		ctxArgs                  map[string]string
		want                     []string
	}{
		{"staged all", "review_changes", "staged", "", nil, []string{"false", "true"}},
		{"staged t", "review_changes", "staged", "T", nil, []string{"true"}},
		{"focus", "review_file", "focus", "se", nil, []string{"security"}},
		{"focus all", "review_file", "focus", "", nil, focusSuggestions},
		{"revision", "review_commit", "revision", "ma", nil, []string{"main"}},
		{"revision in repo", "review_commit", "revision", "v", map[string]string{"repo_path": dir}, []string{"v1.0.0"}},
		{"base", "review_changes", "base", "f", nil, []string{"feature/x"}},
		{"revision outside", "review_commit", "revision", "", map[string]string{"repo_path": outside}, []string{}},
		{"revision not a repo", "review_commit", "revision", "", map[string]string{"repo_path": "sub"}, []string{}},
		{"repo all", "review_changes", "repo_path", "", nil,
			[]string{dir, abs("empty"), abs("sub"), abs("sub/deeper")}},
		{"repo prefix", "commit_message", "repo_path", abs("s"), nil, []string{abs("sub"), abs("sub/deeper")}},
		{"repo relative", "review_commit", "repo_path", "e", nil, []string{"empty"}},
		{"repo uri", "review_changes", "repo_path", roots.URI(dir) + "/e", nil, []string{roots.URI(abs("empty"))}},
		{"repo outside", "review_changes", "repo_path", outside, nil, []string{}},
		{"repo dotdot", "review_changes", "repo_path", "../", nil, []string{}},
		{"path all", "review_file", "path", "", nil, []string{
			abs(".gitignore"), abs("README.md"), abs("big.txt"), abs("logo.png"), abs("main.go"),
			abs("empty/keep"), abs("sub/x.go"), abs("sub/deeper/y.go"),
		}},
		{"path dir", "explain_history", "path", abs("sub") + "/", nil, []string{abs("sub/x.go"), abs("sub/deeper/y.go")}},
		{"path relative", "review_file", "path", "m", nil, []string{"main.go"}},
		{"path ignored", "review_file", "path", "de", nil, []string{}},
		{"path ignored dir", "review_file", "path", "build/", nil, []string{}},
		{"path outside", "review_file", "path", outside, nil, []string{}},
		{"unknown argument", "review_file", "nope", "", nil, []string{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.Complete(t.Context(), completeReq(tt.prompt, tt.arg, tt.value, tt.ctxArgs))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, res.Completion.Values); diff != "" {
				t.Errorf("values mismatch (-want +got):\n%s", diff)
			}
			if res.Completion.HasMore || res.Completion.Total != 0 {
				t.Errorf("hasMore %v, total %d: want neither", res.Completion.HasMore, res.Completion.Total)
			}
		})
	}
}

func TestCompleteRevisionsUseRepoPath(t *testing.T) {
	dir := tree(t)
	g := newFake(dir)
	cs := connect(t, newPrompts(t, dir, g, 0))
	if _, err := cs.Complete(t.Context(), completeReq("review_commit", "revision", "ab", map[string]string{"repo_path": dir})); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.Complete(t.Context(), completeReq("review_commit", "revision", "ab", map[string]string{"repo_path": "empty"})); err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprintf("Revisions(%q, %q)", dir, "ab"), fmt.Sprintf("Revisions(%q, %q)", filepath.Join(dir, "empty"), "ab")}
	if diff := cmp.Diff(want, g.calls); diff != "" {
		t.Errorf("calls mismatch (-want +got):\n%s", diff)
	}
}

func TestCompleteCap(t *testing.T) {
	dir := tree(t)
	for i := range 150 {
		writeFile(t, filepath.Join(dir, "many", fmt.Sprintf("f%03d.txt", i)), nil)
	}
	cs := connect(t, newPrompts(t, dir, newFake(dir), 0))
	res, err := cs.Complete(t.Context(), completeReq("review_file", "path", "many/", nil))
	if err != nil {
		t.Fatal(err)
	}
	c := res.Completion
	if len(c.Values) != maxValues || !c.HasMore || c.Total != 150 {
		t.Errorf("got %d values, hasMore %v, total %d; want %d, true, 150", len(c.Values), c.HasMore, c.Total, maxValues)
	}
	if c.Values[0] != "many/f000.txt" || c.Values[99] != "many/f099.txt" {
		t.Errorf("values run from %q to %q, want many/f000.txt to many/f099.txt", c.Values[0], c.Values[99])
	}
}

func TestCompleteUnknownPrompt(t *testing.T) {
	dir := tree(t)
	cs := connect(t, newPrompts(t, dir, newFake(dir), 0))
	_, err := cs.Complete(t.Context(), completeReq("nope", "path", "", nil))
	if code := rpcCode(err); code != jsonrpc.CodeInvalidParams {
		t.Errorf("error %v (code %d), want code %d", err, code, jsonrpc.CodeInvalidParams)
	}
}

func TestCut(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		limit      int
		want       string
		wantCut    bool
	}{
		{"fits", "ab\ncd\n", 6, "ab\ncd\n", false},
		{"at line", "ab\ncd\nef\n", 7, "ab\ncd\n", true},
		{"one long line", "abcdef", 4, "abcd", true},
		{"rune kept whole", "aé€", 4, "aé", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, gotCut := cut(tt.text, tt.limit)
			if got != tt.want || gotCut != tt.wantCut {
				t.Errorf("cut(%q, %d) = %q, %v; want %q, %v", tt.text, tt.limit, got, gotCut, tt.want, tt.wantCut)
			}
		})
	}
}

func TestBinary(t *testing.T) {
	for _, tt := range []struct {
		name    string
		data    string
		partial bool
		want    bool
	}{
		{"text", "hello\n", false, false},
		{"nul", "a\x00b", false, true},
		{"latin1", "caf\xe9 au lait", false, true},
		{"rune cut by the cap", "caf\xc3", true, false},
		{"rune cut at the end of a whole file", "caf\xc3", false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := binary([]byte(tt.data), tt.partial); got != tt.want {
				t.Errorf("binary(%q, %v) = %v, want %v", tt.data, tt.partial, got, tt.want)
			}
		})
	}
}

// BenchmarkCompletePath completes an empty path in a tree of 10,000 files (the walk visits them all).
func BenchmarkCompletePath(b *testing.B) {
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := range 100 {
		for j := range 100 {
			writeFile(b, filepath.Join(dir, fmt.Sprintf("d%02d", i), fmt.Sprintf("f%02d.go", j)), nil)
		}
	}
	set, err := roots.NewSet([]string{dir}, nil)
	if err != nil {
		b.Fatal(err)
	}
	p := New(Options{Scope: scope.Static(set.Scope()), Git: &fakeGit{}})
	req := &mcp.CompleteRequest{Params: completeReq("review_file", "path", "", nil)}
	for b.Loop() {
		res, err := p.Complete(b.Context(), req)
		if err != nil || len(res.Completion.Values) != maxValues {
			b.Fatalf("got %v, %v", res, err)
		}
	}
}

func TestCompleteSeveralRoots(t *testing.T) {
	dir, other := tree(t), tree(t)
	file := filepath.Join(other, "main.go")
	set, err := roots.NewSet([]string{dir, file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{Scope: scope.Static(set.Scope()), Git: newFake(dir)})
	cs := connect(t, p)
	for _, tt := range []struct {
		name, arg, value string
		want             []string
	}{
		{"repo skips file roots", "repo_path", filepath.Dir(dir), []string{dir, filepath.Join(dir, "empty"), filepath.Join(dir, "sub")}},
		{"file root first", "path", file, []string{file}},
		{"file root and files", "path", filepath.Dir(filepath.Dir(dir)), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.Complete(t.Context(), completeReq("review_file", tt.arg, tt.value, nil))
			if err != nil {
				t.Fatal(err)
			}
			got := res.Completion.Values
			if tt.want == nil {
				if len(got) == 0 || got[0] != file {
					t.Errorf("values %q, want the file root %s first", got, file)
				}
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("values mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
