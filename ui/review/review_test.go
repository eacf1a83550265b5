package review

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite the script hash in review.html's Content-Security-Policy")

const (
	legacy = "2025-11-25"
	modern = "2026-07-28"
)

// newServer is a server with tools and prompts named like grove's, one of
// them with _meta of its own, and the view's middleware when with is set.
func newServer(with bool) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "v0"}, nil)
	type in struct {
		X string `json:"x,omitempty"`
	}
	h := func(context.Context, *mcp.CallToolRequest, in) (*mcp.CallToolResult, any, error) {
		return nil, map[string]any{"files": []any{}}, nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "git_diff", Description: "diff"}, h)
	mcp.AddTool(s, &mcp.Tool{Name: "git_show", Description: "show", Meta: mcp.Meta{"ui": map[string]any{"visibility": []any{"model", "app"}}, "other": 1}}, h)
	mcp.AddTool(s, &mcp.Tool{Name: "read_file", Description: "read"}, h)
	ph := func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	}
	s.AddPrompt(&mcp.Prompt{Name: "review_changes"}, ph)
	s.AddPrompt(&mcp.Prompt{Name: "review_commit"}, ph)
	s.AddPrompt(&mcp.Prompt{Name: "commit_message"}, ph)
	if with {
		s.AddReceivingMiddleware(Middleware)
	}
	return s
}

// exchange sends msgs to a server over a raw connection, as a client of
// version that declares the extension or not, and returns the raw answer
// (result or error) to each.
func exchange(t *testing.T, s *mcp.Server, version string, ext bool, msgs []string) []string {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	caps := `{}`
	if ext {
		caps = `{"extensions":{"` + Extension + `":{"mimeTypes":["` + MIMEType + `"]}}}`
	}
	meta := ""
	if version == modern {
		meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + modern + `","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":` + caps + `}`
	} else {
		msgs = append([]string{`"initialize",{"protocolVersion":"` + legacy + `","capabilities":` + caps + `,"clientInfo":{"name":"c","version":"1"}}`}, msgs...)
	}
	var out []string
	for i, m := range msgs {
		method, params, _ := strings.Cut(m, ",")
		if meta != "" {
			params = strings.Replace(params, "{", "{"+meta+",", 1)
			params = strings.Replace(params, "{"+meta+",}", "{"+meta+"}", 1)
		}
		id, _ := jsonrpc.MakeID(float64(i + 1))
		req := &jsonrpc.Request{ID: id, Method: strings.Trim(method, `"`), Params: json.RawMessage(params)}
		if err := conn.Write(ctx, req); err != nil {
			t.Fatal(err)
		}
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		resp, ok := msg.(*jsonrpc.Response)
		if !ok {
			t.Fatalf("%s: got %T", method, msg)
		}
		if i == 0 && version != modern {
			conn.Write(ctx, &jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)})
			continue
		}
		if resp.Error != nil {
			e, _ := json.Marshal(resp.Error)
			out = append(out, "error "+string(e))
			continue
		}
		out = append(out, string(resp.Result))
	}
	return out
}

var calls = []string{
	`"tools/list",{}`,
	`"prompts/list",{}`,
	`"resources/read",{"uri":"` + URI + `"}`,
	`"tools/call",{"name":"git_diff","arguments":{}}`,
}

func TestOtherClientsSeeNoChange(t *testing.T) {
	for _, version := range []string{legacy, modern} {
		t.Run(version, func(t *testing.T) {
			want := exchange(t, newServer(false), version, false, calls)
			got := exchange(t, newServer(true), version, false, calls)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("answers to a client without the extension changed (-without +with):\n%s", diff)
			}
			if !strings.HasPrefix(got[2], "error ") {
				t.Errorf("resources/read of the view without the extension: %s", got[2])
			}
		})
	}
}

func TestHostsWithTheExtension(t *testing.T) {
	for _, version := range []string{legacy, modern} {
		t.Run(version, func(t *testing.T) {
			got := exchange(t, newServer(true), version, true, calls)
			var tools mcp.ListToolsResult
			must(t, json.Unmarshal([]byte(got[0]), &tools))
			links := map[string]any{}
			for _, tl := range tools.Tools {
				links[tl.Name] = tl.Meta["ui"]
			}
			want := map[string]any{
				"git_diff":  map[string]any{"resourceUri": URI},
				"git_show":  map[string]any{"resourceUri": URI, "visibility": []any{"model", "app"}},
				"read_file": nil,
			}
			if diff := cmp.Diff(want, links); diff != "" {
				t.Errorf("tools' _meta.ui mismatch (-want +got):\n%s", diff)
			}
			if !strings.Contains(got[0], `"other":1`) {
				t.Errorf("git_show lost its other _meta: %s", got[0])
			}
			var prompts mcp.ListPromptsResult
			must(t, json.Unmarshal([]byte(got[1]), &prompts))
			for _, p := range prompts.Prompts {
				linked := p.Meta["ui"] != nil
				if linked != (p.Name != "commit_message") {
					t.Errorf("prompt %s: _meta %v", p.Name, p.Meta)
				}
			}
			var read mcp.ReadResourceResult
			must(t, json.Unmarshal([]byte(got[2]), &read))
			if len(read.Contents) != 1 || read.Contents[0].MIMEType != MIMEType || read.Contents[0].Text != html || read.Contents[0].URI != URI {
				t.Errorf("resources/read of the view: %.300s", got[2])
			}
		})
	}
}

// TestMiddlewareCopies checks that linking never changes the server's own
// tool definitions (the SDK hands the middleware its registered tools).
func TestMiddlewareCopies(t *testing.T) {
	s := newServer(true)
	exchange(t, s, legacy, true, calls[:1])
	got := exchange(t, s, legacy, false, calls[:1])
	want := exchange(t, newServer(false), legacy, false, calls[:1])
	if got[0] != want[0] {
		t.Errorf("a plain client after an extension host:\n got %s\nwant %s", got[0], want[0])
	}
}

// TestSelfContained keeps the view free of anything that loads from
// elsewhere or builds markup from strings, and its CSP hash current.
func TestSelfContained(t *testing.T) {
	for _, bad := range []string{"http://", "https://", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "<link", "src=", "@import", "fetch(", "XMLHttpRequest", "WebSocket"} {
		if strings.Contains(html, bad) && !(bad == "http://" && strings.Count(html, bad) == strings.Count(html, "http://www.w3.org")) {
			t.Errorf("review.html contains %q", bad)
		}
	}
	script := regexp.MustCompile(`(?s)<script>(.*)</script>`).FindStringSubmatch(html)
	if script == nil {
		t.Fatal("no inline script")
	}
	sum := sha256.Sum256([]byte(script[1]))
	hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	csp := regexp.MustCompile(`script-src ('[^']*')`).FindStringSubmatch(html)
	if csp == nil {
		t.Fatal("no script-src in the CSP")
	}
	if csp[1] != hash {
		if *update {
			data, err := os.ReadFile("review.html")
			must(t, err)
			must(t, os.WriteFile("review.html", []byte(strings.Replace(string(data), "script-src "+csp[1], "script-src "+hash, 1)), 0o644))
			return
		}
		t.Errorf("CSP script-src %s, want %s (run go test ./ui/review -update)", csp[1], hash)
	}
	if len(html) > 40<<10 {
		t.Errorf("review.html is %d bytes; keep the view small", len(html))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
