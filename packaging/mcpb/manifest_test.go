// Package mcpb holds the MCP Bundle (.mcpb) that installs grove in Claude
// Desktop with a double-click: manifest.json (a template: pack.sh fills in
// the version, the binary's name and the platform), icon.png, and the
// scripts that pack, validate and try the bundles (see README.md here).
//
// The tests keep manifest.json's tools and prompts equal to what grove
// serves and icon.png equal to the drawing in icon_test.go; run them with
// -update after changing a tool, a prompt or the drawing.
package mcpb

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite manifest.json's tools and prompts and icon.png")

// manifest is manifest.json, its keys in the file's order. An unknown key
// fails the test rather than vanish in an -update.
type manifest struct {
	ManifestVersion string          `json:"manifest_version"`
	Name            string          `json:"name"`
	DisplayName     string          `json:"display_name"`
	Version         string          `json:"version"`
	Description     string          `json:"description"`
	LongDescription string          `json:"long_description"`
	Author          json.RawMessage `json:"author"`
	Repository      json.RawMessage `json:"repository"`
	Homepage        string          `json:"homepage"`
	Documentation   string          `json:"documentation"`
	Support         string          `json:"support"`
	Icon            string          `json:"icon"`
	Server          json.RawMessage `json:"server"`
	Tools           []tool          `json:"tools"`
	Prompts         []prompt        `json:"prompts"`
	Keywords        []string        `json:"keywords"`
	License         string          `json:"license"`
	Compatibility   json.RawMessage `json:"compatibility"`
	UserConfig      json.RawMessage `json:"user_config"`
}

type tool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// prompt is a manifest prompt. The manifest wants a text; grove fills its
// prompts in at run time, so the text is the description.
type prompt struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Arguments   []string `json:"arguments,omitempty"`
	Text        string   `json:"text"`
}

func readManifest(t *testing.T) manifest {
	t.Helper()
	data, err := os.ReadFile("manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m manifest
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	return m
}

// served lists the tools and prompts of a read-write grove.
func served(t *testing.T) ([]tool, []prompt) {
	t.Helper()
	s, err := server.New(server.Config{Roots: []string{t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpb-test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	var tools []tool
	for tl, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool{tl.Name, tl.Description})
	}
	var prompts []prompt
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		var args []string
		for _, a := range p.Arguments {
			args = append(args, a.Name)
		}
		prompts = append(prompts, prompt{p.Name, p.Description, args, p.Description})
	}
	return tools, prompts
}

func TestManifestListsWhatGroveServes(t *testing.T) {
	m := readManifest(t)
	tools, prompts := served(t)
	if *update {
		m.Tools, m.Prompts = tools, prompts
		data, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("manifest.json", append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(tools, m.Tools); diff != "" {
		t.Errorf("manifest.json tools differ from grove's; run go test ./packaging/mcpb -update (-served +manifest):\n%s", diff)
	}
	if diff := cmp.Diff(prompts, m.Prompts); diff != "" {
		t.Errorf("manifest.json prompts differ from grove's; run go test ./packaging/mcpb -update (-served +manifest):\n%s", diff)
	}
}

// TestManifestServer pins what the bundle runs: the binary under server/,
// the read-only switch, then "--" and the chosen folders, each its own
// argument (mcpb expands a multiple user_config value in place when it is a
// whole array item; grove takes every argument after "--" as a root).
func TestManifestServer(t *testing.T) {
	m := readManifest(t)
	var srv struct {
		Type       string `json:"type"`
		EntryPoint string `json:"entry_point"`
		MCPConfig  struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcp_config"`
	}
	if err := json.Unmarshal(m.Server, &srv); err != nil {
		t.Fatal(err)
	}
	want := []string{"--read-only=${user_config.read_only}", "--", "${user_config.roots}"}
	if srv.Type != "binary" || srv.MCPConfig.Command != "${__dirname}/"+srv.EntryPoint || !cmp.Equal(want, srv.MCPConfig.Args) {
		t.Errorf("server = %+v, want a binary run as ${__dirname}/entry_point with args %q", srv, want)
	}
	if m.Icon != "icon.png" {
		t.Errorf("icon = %q", m.Icon)
	}
	if _, err := os.Stat(filepath.Join("..", "..", "LICENSE")); err != nil {
		t.Errorf("the bundle ships the licence: %v", err)
	}
}
