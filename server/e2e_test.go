package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestBinaryBothEras(t *testing.T) {
	bin := servertest.GroveBinary(t)
	dir := servertest.RealTemp(t)
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.Command(bin, "--root", dir, "--log-level", "debug")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: era})
			if err != nil {
				t.Fatalf("connect: %v\nstderr:\n%s", err, stderr.String())
			}
			if got := cs.InitializeResult().ProtocolVersion; got != era {
				t.Errorf("negotiated %s, want %s", got, era)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_roots"})
			if err != nil || res.IsError {
				t.Fatalf("list_roots: %v %+v", err, res)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, dir) {
				t.Errorf("list_roots = %q, want it to name %s", text, dir)
			}
			if err := cs.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		})
	}
}

// A client that writes its requests and closes stdin still gets every answer.
func TestBinaryAnswersBeforeEOF(t *testing.T) {
	bin := servertest.GroveBinary(t)
	cmd := exec.Command(bin, "--root", servertest.RealTemp(t))
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_roots","arguments":{}}}
{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}
`)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("grove: %v", err)
	}
	ids := map[float64]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var msg struct {
			ID     float64         `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			t.Fatalf("stdout carries a non-JSON line %q", sc.Text())
		}
		if msg.Result != nil {
			ids[msg.ID] = true
		}
	}
	for _, id := range []float64{1, 2, 3} {
		if !ids[id] {
			t.Errorf("no result for request %v; stdout:\n%s", id, out)
		}
	}
}

func TestBinaryBadFlag(t *testing.T) {
	bin := servertest.GroveBinary(t)
	out, err := exec.Command(bin, "--no-such-flag").CombinedOutput()
	if err == nil {
		t.Fatal("bad flag exited 0")
	}
	if lines := strings.Count(strings.TrimSpace(string(out)), "\n") + 1; lines != 1 {
		t.Errorf("bad flag printed %d lines, want 1:\n%s", lines, out)
	}
}

// An empty file is an empty text on the wire, in both eras: the SDK alone
// would send neither text nor blob.
func TestBinaryEmptyFileIsEmptyText(t *testing.T) {
	bin := servertest.GroveBinary(t)
	dir := servertest.RealTemp(t)
	servertest.Write(t, filepath.Join(dir, "empty.txt"), "")
	uri := "file://" + filepath.ToSlash(filepath.Join(dir, "empty.txt"))
	modernMeta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, tt := range []struct{ era, input string }{
		{servertest.Legacy, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"` + uri + `"}}
`},
		{servertest.Modern, `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"` + uri + `",` + modernMeta + `}}
`},
	} {
		t.Run(tt.era, func(t *testing.T) {
			cmd := exec.Command(bin, "--root", dir)
			cmd.Stdin = strings.NewReader(tt.input)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				var msg struct {
					ID     int `json:"id"`
					Result struct {
						Contents   []map[string]any `json:"contents"`
						ResultType string           `json:"resultType"`
					} `json:"result"`
				}
				if json.Unmarshal([]byte(line), &msg) != nil || msg.ID != 2 {
					continue
				}
				if len(msg.Result.Contents) != 1 || msg.Result.Contents[0]["text"] != "" {
					t.Errorf("empty file read as %s", line)
				}
				if tt.era == servertest.Modern && msg.Result.ResultType != "complete" {
					t.Errorf("modern result lacks resultType complete: %s", line)
				}
				return
			}
			t.Fatalf("no answer to resources/read:\n%s", out)
		})
	}
}

// Subscriptions end to end over stdio, in both eras: the subscriber hears of
// its file's changes; an unsubscribed sibling and a file outside the root
// stay silent.
func TestBinarySubscriptions(t *testing.T) {
	bin := servertest.GroveBinary(t)
	for _, era := range servertest.Eras {
		t.Run(era, func(t *testing.T) {
			base := servertest.RealTemp(t)
			servertest.Mkdirs(t, base, "root", "outside")
			// A batch's updates go out in URI order, so every silent file must sort
			// before the awaited one to be caught: 0.txt < a.txt, outside < root.
			a, b := filepath.Join(base, "root", "a.txt"), filepath.Join(base, "root", "0.txt")
			out := filepath.Join(base, "outside", "x.txt")
			for _, f := range []string{a, b, out} {
				servertest.Write(t, f, "0")
			}
			ctx, cancel := context.WithTimeout(context.Background(), servertest.WaitLimit)
			defer cancel()
			updated := make(chan string, 100)
			client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
				ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
					updated <- req.Params.URI
				},
			})
			cmd := exec.Command(bin, "--root", filepath.Join(base, "root"))
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: era})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(a)}); err != nil {
				t.Fatal(err)
			}
			if era == servertest.Legacy {
				if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: roots.URI(out)}); err == nil {
					t.Error("subscribed to a file outside the root")
				}
			}
			// A modern Subscribe returns before the server has the subscription:
			// keep writing until the first notification proves it is in place.
			for i := 1; ; i++ {
				servertest.Write(t, a, fmt.Sprint(i))
				select {
				case got := <-updated:
					if got != roots.URI(a) {
						t.Fatalf("update for %s, want %s", got, roots.URI(a))
					}
				case <-time.After(time.Second):
					if ctx.Err() != nil {
						t.Fatal("no update for the subscribed file")
					}
					continue
				}
				break
			}
			servertest.Write(t, b, "1")
			servertest.Write(t, out, "1")
			servertest.Write(t, a, "last")
			expectUpdatedFrom(t, updated, roots.URI(a), roots.URI(b), roots.URI(out))
		})
	}
}

// expectUpdatedFrom waits for want on ch; a forbidden URI before it fails.
func expectUpdatedFrom(t *testing.T, ch chan string, want string, forbidden ...string) {
	t.Helper()
	servertest.ExpectUpdated(t, servertest.Events{Updated: ch}, want, forbidden...)
}
