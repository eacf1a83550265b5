package fsres

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wavBytes is a WAV file with four silent 8-bit samples.
var wavBytes = []byte("RIFF\x28\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00\x40\x1f\x00\x00\x01\x00\x08\x00data\x04\x00\x00\x00\x80\x80\x80\x80")

const svgText = `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>` + "\n"

// mediaTree is a root with an image, a sound, an SVG, a ZIP, a PNG of size
// bytes (sparse: a header and then zeros) named large.png, and a text file.
func mediaTree(t *testing.T, size int64) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	must(t, os.WriteFile(filepath.Join(root, "shot.png"), pngBytes, 0o644))
	must(t, os.WriteFile(filepath.Join(root, "beep.wav"), wavBytes, 0o644))
	must(t, os.WriteFile(filepath.Join(root, "logo.svg"), []byte(svgText), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "a.zip"), []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello\n"), 0o644))
	f, err := os.Create(filepath.Join(root, "large.png"))
	must(t, err)
	_, err = f.Write(pngBytes[:33]) // signature and IHDR
	must(t, err)
	must(t, f.Truncate(size))
	must(t, f.Close())
	return root
}

// callRaw calls a tool that must succeed and returns its whole result.
func callRaw(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s(%v) failed: %v", name, args, res.Content)
	}
	return res
}

func TestReadFileMedia(t *testing.T) {
	root := mediaTree(t, 20<<20)
	cs := connect(t, New(Options{Scope: scope.Static(testScope(t, root))}), modern)
	for _, tt := range []struct {
		name  string
		block mcp.Content // the second content block; nil: only a text block
		want  FileText
		text  string // in the text block
	}{
		{"shot.png", &mcp.ImageContent{Data: pngBytes, MIMEType: "image/png"},
			FileText{Binary: true, Size: int64(len(pngBytes)), MIMEType: "image/png", Media: "image"}, "image file, 67 B, image/png; in the next content block"},
		{"beep.wav", &mcp.AudioContent{Data: wavBytes, MIMEType: "audio/wav"},
			FileText{Binary: true, Size: int64(len(wavBytes)), MIMEType: "audio/wav", Media: "audio"}, "audio file, 48 B, audio/wav"},
		{"large.png", nil,
			FileText{Binary: true, Size: 20 << 20, MIMEType: "image/png", Media: "image", MediaLimit: 5 << 20}, "image file, 20 MiB, image/png; not shown: above the limit of 5 MiB"},
		{"a.zip", nil, FileText{Binary: true, Size: 10, MIMEType: "application/zip"}, "binary file, 10 B, application/zip; not shown"},
		{"logo.svg", nil, FileText{Size: int64(len(svgText)), TotalLines: 1, StartLine: 1, EndLine: 1}, svgText},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(root, tt.name)
			res := callRaw(t, cs, "read_file", ReadFileArgs{Path: path})
			var got FileText
			decode(t, res.StructuredContent, &got)
			tt.want.Path = path
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreUnexported(FileText{})); diff != "" {
				t.Errorf("structuredContent mismatch (-want +got):\n%s", diff)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, tt.text) {
				t.Errorf("text %q lacks %q", text, tt.text)
			}
			var block mcp.Content
			if len(res.Content) > 1 {
				block = res.Content[1]
			}
			if diff := cmp.Diff(tt.block, block); diff != "" || len(res.Content) > 2 {
				t.Errorf("media block mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadFileMediaLimits(t *testing.T) {
	root := mediaTree(t, 4096)
	for _, tt := range []struct {
		name              string
		maxMedia, maxRead int64
		wantSent          bool
		wantText          string
	}{
		{"within", 4096, 8192, true, "in the next content block"},
		{"above", 1000, 8192, false, "not shown: above the limit of 1000 B for images and audio"},
		{"none", -1, 8192, false, "binary file, 4 KiB, image/png; not shown"},
		{"capped by the read limit", 1 << 20, 2048, false, "above the limit of 2 KiB"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := New(Options{Scope: scope.Static(testScope(t, root)), MaxMediaBytes: tt.maxMedia, MaxReadBytes: tt.maxRead})
			res := callRaw(t, connect(t, f, legacy), "read_file", ReadFileArgs{Path: "large.png"})
			if sent := len(res.Content) == 2; sent != tt.wantSent {
				t.Errorf("sent = %v, want %v", sent, tt.wantSent)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, tt.wantText) {
				t.Errorf("text %q lacks %q", text, tt.wantText)
			}
		})
	}
}

func TestReadFilesMedia(t *testing.T) {
	root := mediaTree(t, 20<<20)
	cs := connect(t, New(Options{Scope: scope.Static(testScope(t, root))}), modern)
	res := callRaw(t, cs, "read_files", ReadFilesArgs{Paths: []string{"a.txt", "shot.png", "large.png", "beep.wav", "a.txt"}})
	var kinds []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			kinds = append(kinds, "text")
		case *mcp.ImageContent:
			kinds = append(kinds, "image:"+c.MIMEType)
		case *mcp.AudioContent:
			kinds = append(kinds, "audio:"+c.MIMEType)
		}
	}
	if diff := cmp.Diff([]string{"text", "image:image/png", "text", "audio:audio/wav", "text"}, kinds); diff != "" {
		t.Errorf("content blocks mismatch (-want +got):\n%s", diff)
	}
	if text := res.Content[2].(*mcp.TextContent).Text; !strings.Contains(text, "large.png: image file, 20 MiB") {
		t.Errorf("third block %q does not describe large.png", text)
	}
	var got FilesText
	decode(t, res.StructuredContent, &got)
	if len(got.Files) != 5 || got.Files[1].Media != "image" || got.Files[2].MediaLimit != 5<<20 || got.Files[3].Media != "audio" {
		t.Errorf("structuredContent: %+v", got.Files)
	}
}

func TestReadFilesMediaBudget(t *testing.T) {
	root := mediaTree(t, 600)
	f := New(Options{Scope: scope.Static(testScope(t, root)), MaxReadBytes: 1024})
	res := callRaw(t, connect(t, f, modern), "read_files", ReadFilesArgs{Paths: []string{"large.png", "large.png"}})
	var got FilesText
	decode(t, res.StructuredContent, &got)
	if got.Files[0].Media != "image" || !strings.Contains(got.Files[1].Error, "skipped") {
		t.Errorf("the second 600-byte image should not fit a 1 KiB answer: %+v", got.Files)
	}
	if len(res.Content) != 3 {
		t.Errorf("%d content blocks, want text, image, text", len(res.Content))
	}
}

// decode turns a structuredContent into out.
func decode(t *testing.T, structured, out any) {
	t.Helper()
	data, err := json.Marshal(structured)
	must(t, err)
	must(t, json.Unmarshal(data, out))
}
