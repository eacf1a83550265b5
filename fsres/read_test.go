package fsres

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestReadResource(t *testing.T) {
	root, outside := testTree(t)
	uri := func(rel string) string { return "file://" + filepath.ToSlash(root) + "/" + rel }
	for _, version := range []string{legacy, modern} {
		cs := connect(t, newFiles(t, false, root), version)
		for _, tt := range []struct {
			name, uri     string
			wantMIME      string
			wantText      string
			wantBlob      bool
			wantErr       string // substring of the JSON-RPC message
			skipOnWindows bool
		}{
			{name: "text", uri: uri("a.txt"), wantMIME: "text/plain", wantText: "hello\nworld\n"},
			{name: "go", uri: uri("src/main.go"), wantMIME: "text/x-go", wantText: "package main\n"},
			{name: "png", uri: uri("image.png"), wantMIME: "image/png", wantBlob: true},
			{name: "empty", uri: uri("empty.txt"), wantText: ""},
			{name: "dir", uri: uri("src"), wantMIME: "inode/directory", wantText: "util/\nmain.go\n"},
			{name: "root", uri: "file://" + filepath.ToSlash(root), wantMIME: "inode/directory", wantText: "docs/\nsrc/\n.gitignore\n"},
			{name: "symlink inside", uri: uri("link-inside"), wantMIME: "text/plain", wantText: "package main"},
			{name: "fifo", uri: uri("fifo"), wantErr: "not a regular file", skipOnWindows: true},
			{name: "too large", uri: uri("big.txt"), wantErr: "above the read limit of 1 KiB"},
			{name: "missing", uri: uri("nope.txt"), wantErr: "Resource not found"},
			{name: "outside", uri: "file://" + filepath.ToSlash(outside) + "/secret.txt", wantErr: "Resource not found"},
			{name: "dotdot", uri: uri("../outside/secret.txt"), wantErr: "Resource not found"},
			{name: "encoded dotdot", uri: uri("%2e%2e/outside/secret.txt"), wantErr: "Resource not found"},
			{name: "symlink outside", uri: uri("link-outside"), wantErr: "Resource not found"},
			{name: "dangling", uri: uri("dangling"), wantErr: "Resource not found"},
			{name: "ignored", uri: uri("app.log"), wantMIME: "text/plain", wantText: "hello from a log"},
		} {
			t.Run(version+"/"+tt.name, func(t *testing.T) {
				if tt.skipOnWindows && runtime.GOOS == "windows" {
					t.Skip("no FIFOs")
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tt.uri})
				if tt.wantErr != "" {
					if code := wireCode(err); code != jsonrpc.CodeInvalidParams || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("err = %v (code %d), want -32602 with %q", err, code, tt.wantErr)
					}
					if strings.Contains(err.Error(), outside) {
						t.Errorf("error reveals the outside path: %v", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if res.CacheScope != "private" {
					t.Errorf("cacheScope %q, want private", res.CacheScope)
				}
				c := res.Contents[0]
				if c.URI != tt.uri {
					t.Errorf("uri %q, want %q", c.URI, tt.uri)
				}
				if tt.wantMIME != "" && c.MIMEType != tt.wantMIME {
					t.Errorf("mime %q, want %q", c.MIMEType, tt.wantMIME)
				}
				if tt.wantBlob {
					if string(c.Blob) != string(pngBytes) || c.Text != "" {
						t.Errorf("blob %d bytes, text %q", len(c.Blob), c.Text)
					}
					return
				}
				if !strings.HasPrefix(c.Text, tt.wantText) || (tt.wantText == "" && c.Text != "") || c.Blob != nil {
					t.Errorf("text %q, want prefix %q (blob %d bytes)", c.Text, tt.wantText, len(c.Blob))
				}
			})
		}
	}
}

// Outside and missing must be indistinguishable, also in the error data.
func TestReadResourceOutsideLikeMissing(t *testing.T) {
	root, outside := testTree(t)
	cs := connect(t, newFiles(t, false, root), modern)
	read := func(uri string) string {
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err == nil {
			t.Fatalf("%s: no error", uri)
		}
		return strings.ReplaceAll(err.Error(), uri, "URI")
	}
	missing := read("file://" + filepath.ToSlash(root) + "/secret.txt")
	for _, uri := range []string{
		"file://" + filepath.ToSlash(outside) + "/secret.txt",
		"file://" + filepath.ToSlash(outside) + "/nothing.txt",
		"file://" + filepath.ToSlash(root) + "/link-outside",
	} {
		if got := read(uri); got != missing {
			t.Errorf("%s reads %q, missing reads %q", uri, got, missing)
		}
	}
}

func TestReadResourceFileRoot(t *testing.T) {
	_, outside := testTree(t)
	writeTxtar(t, outside, "-- sibling.txt --\nsibling\n")
	f := New(Options{Scope: scope.Static(testScope(t, filepath.Join(outside, "secret.txt")))})
	cs := connect(t, f, modern)
	base := "file://" + filepath.ToSlash(outside)
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: base + "/secret.txt"})
	if err != nil || res.Contents[0].Text != "secret\n" {
		t.Fatalf("the root file: %v, %v", res, err)
	}
	for _, uri := range []string{base + "/sibling.txt", base, base + "/secret.txt/../sibling.txt"} {
		if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri}); wireCode(err) != jsonrpc.CodeInvalidParams {
			t.Errorf("%s: %v, want not found", uri, err)
		}
	}
}
