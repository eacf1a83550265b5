package server

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// With nothing to work in, a tool's error and list_roots' hint say why, in
// the words a user can act on: grove was started without a directory (and
// how to give it one), or the client's roots lie outside grove's.
func TestNoRootsMessages(t *testing.T) {
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			base := servertest.RealTemp(t)
			servertest.Mkdirs(t, base, "proj", "other")
			for _, tt := range []struct {
				name   string
				cfg    Config
				client []string
				want   string
			}{
				{"no directory at all", Config{}, nil, "grove was started without a directory, and the client shared none it can use. " +
					"Start it with one: grove --root /path/to/project"},
				{"client roots outside", Config{Roots: []string{filepath.Join(base, "proj")}}, []string{filepath.Join(base, "other")},
					"none of the client's roots lies inside the directories grove was started with (--root)"},
			} {
				t.Run(tt.name, func(t *testing.T) {
					cs, _, _ := connect(t, tt.cfg, era, tt.client...)
					if hint := listRoots(t, cs).Hint; !strings.Contains(hint, tt.want) {
						t.Errorf("list_roots hint %q, want %q", hint, tt.want)
					}
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "git_status"})
					if err != nil {
						t.Fatal(err)
					}
					if text := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.Contains(text, tt.want) {
						t.Errorf("git_status: %q (isError %v), want an error saying %q", text, res.IsError, tt.want)
					}
					_, err = cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "commit_message"})
					if err == nil || !strings.Contains(err.Error(), tt.want) {
						t.Errorf("commit_message: %v, want an error saying %q", err, tt.want)
					}
				})
			}
		})
	}
}

func TestDoctorWithoutRoots(t *testing.T) {
	var b strings.Builder
	if err := Doctor(context.Background(), &b, Config{Version: "v0"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"grove was started without a directory", "grove --root /path/to/project"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("doctor says %q, want %q", b.String(), want)
		}
	}
}
