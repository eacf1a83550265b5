package server

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/internal/testenv"

	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callText calls a tool and returns its text and whether it failed.
func callText(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// The client's roots narrow every feature, not only list_roots: tools and
// resource reads outside them answer exactly as for a missing file.
func TestClientRootsNarrowTools(t *testing.T) {
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			base := servertest.RealTemp(t)
			servertest.Mkdirs(t, base, "proj/sub", "proj/other")
			sub := filepath.Join(base, "proj", "sub")
			inside := filepath.Join(sub, "in.txt")
			beside := filepath.Join(base, "proj", "other", "secret.txt")
			servertest.Write(t, inside, "visible\n")
			servertest.Write(t, beside, "secret\n")
			cs, _, _ := connect(t, Config{Roots: []string{filepath.Join(base, "proj")}}, era, sub)

			if text, isErr := callText(t, cs, "read_file", map[string]any{"path": inside}); isErr || !strings.Contains(text, "visible") {
				t.Errorf("read_file inside the client root = %q (error %v)", text, isErr)
			}
			missing := filepath.Join(sub, "missing.txt")
			wantErr, _ := callText(t, cs, "read_file", map[string]any{"path": missing})
			gotErr, isErr := callText(t, cs, "read_file", map[string]any{"path": beside})
			if !isErr || strings.Contains(gotErr, "secret\n") {
				t.Fatalf("read_file beside the client root = %q (error %v), want refused", gotErr, isErr)
			}
			if strings.ReplaceAll(gotErr, beside, "X") != strings.ReplaceAll(wantErr, missing, "X") {
				t.Errorf("outside reads %q, missing reads %q: they must read alike", gotErr, wantErr)
			}

			wantCode := int64(jsonrpc.CodeInvalidParams)
			if era == servertest.Legacy {
				wantCode = legacyResourceNotFound
			}
			for _, uri := range []string{roots.URI(beside), roots.URI(missing)} {
				_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
				var rpcErr *jsonrpc.Error
				if !errors.As(err, &rpcErr) || rpcErr.Code != wantCode {
					t.Errorf("resources/read %s: %v, want resource not found (%d)", uri, err, wantCode)
				}
			}
			res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: roots.URI(inside)})
			if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != "visible\n" {
				t.Errorf("resources/read inside: %+v, %v", res, err)
			}
		})
	}
}

// With --read-only no tool that writes is offered.
func TestReadOnlyOffersNoWrites(t *testing.T) {
	cs, _, _ := connect(t, Config{Roots: []string{servertest.RealTemp(t)}, ReadOnly: true}, servertest.Legacy)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) < 10 {
		t.Fatalf("only %d tools", len(res.Tools))
	}
	for _, tool := range res.Tools {
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("read-only server offers %s, which is not read-only", tool.Name)
		}
		if tool.Annotations != nil && (tool.Annotations.OpenWorldHint == nil || *tool.Annotations.OpenWorldHint) {
			t.Errorf("%s: openWorldHint must be false", tool.Name)
		}
	}
}

// Every tool the issues name exists, with an object output schema.
func TestToolContract(t *testing.T) {
	cs, _, _ := connect(t, Config{Roots: []string{servertest.RealTemp(t)}}, servertest.Legacy)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		have[tool.Name] = tool
	}
	for _, name := range strings.Fields(`list_roots read_file read_files list_directory directory_tree search_files grep
		file_info write_file edit_file create_directory move_file git_status git_log git_diff git_show git_add
		git_reset git_commit git_branch git_create_branch git_checkout git_blame git_tag git_init`) {
		tool, ok := have[name]
		if !ok {
			t.Errorf("tool %s missing", name)
			continue
		}
		if tool.Title == "" && (tool.Annotations == nil || tool.Annotations.Title == "") {
			t.Errorf("%s has no title", name)
		}
		if tool.Description == "" {
			t.Errorf("%s has no description", name)
		}
	}
}

// TestMain gives the tests that commit a git identity isolated from the
// machine's config, and says once that git is missing (the warm-status tests
// check grove against it).
func TestMain(m *testing.M) { gitIdentity(); os.Exit(testenv.NeedGit(m)) }

func gitIdentity() {
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
		"GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1"} {
		os.Setenv(k, v)
	}
}
