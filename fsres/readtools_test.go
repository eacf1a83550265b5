package fsres

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestReadFile(t *testing.T) {
	root, outside := testTree(t)
	cs := connect(t, newFiles(t, false, root), modern)
	main := filepath.Join(root, "src", "main.go")
	big := filepath.Join(root, "big.txt")
	for _, tt := range []struct {
		name string
		args ReadFileArgs
		want FileText
	}{
		{"whole", ReadFileArgs{Path: main}, FileText{Path: main, TotalLines: 5, StartLine: 1, EndLine: 5,
			Content: "package main\n\nfunc main() {\n\tprintln(\"Hello\")\n}\n", Size: 48}},
		{"relative", ReadFileArgs{Path: "a.txt"}, FileText{Path: filepath.Join(root, "a.txt"), TotalLines: 2,
			StartLine: 1, EndLine: 2, Content: "hello\nworld\n", Size: 12}},
		{"uri", ReadFileArgs{Path: "file://" + filepath.ToSlash(root) + "/a.txt"}, FileText{Path: filepath.Join(root, "a.txt"),
			TotalLines: 2, StartLine: 1, EndLine: 2, Content: "hello\nworld\n", Size: 12}},
		{"range", ReadFileArgs{Path: main, StartLine: 3, EndLine: 4}, FileText{Path: main, TotalLines: 5, StartLine: 3,
			EndLine: 4, Cut: true, Content: "func main() {\n\tprintln(\"Hello\")\n", Size: 48}},
		{"head", ReadFileArgs{Path: main, Head: 1}, FileText{Path: main, TotalLines: 5, StartLine: 1, EndLine: 1,
			Cut: true, Content: "package main\n", Size: 48}},
		{"tail", ReadFileArgs{Path: main, Tail: 2}, FileText{Path: main, TotalLines: 5, StartLine: 4, EndLine: 5,
			Cut: true, Content: "\tprintln(\"Hello\")\n}\n", Size: 48}},
		{"end past the end", ReadFileArgs{Path: main, StartLine: 5, EndLine: 99}, FileText{Path: main, TotalLines: 5,
			StartLine: 5, EndLine: 5, Cut: true, Content: "}\n", Size: 48}},
		{"binary", ReadFileArgs{Path: filepath.Join(root, "image.png")}, FileText{Path: filepath.Join(root, "image.png"),
			Binary: true, Size: int64(len(pngBytes)), MIMEType: "image/png", Media: "image"}},
		{"empty", ReadFileArgs{Path: filepath.Join(root, "empty.txt")}, FileText{Path: filepath.Join(root, "empty.txt")}},
		{"large range", ReadFileArgs{Path: big, StartLine: 10, EndLine: 12}, FileText{Path: big, TotalLines: 1000,
			StartLine: 10, EndLine: 12, Cut: true, Content: "x\nx\nx\n", Size: 2000}},
		{"large tail", ReadFileArgs{Path: big, Tail: 2}, FileText{Path: big, TotalLines: 1000,
			StartLine: 999, EndLine: 1000, Cut: true, Content: "x\nx\n", Size: 2000}},
		{"large head", ReadFileArgs{Path: big, Head: 1}, FileText{Path: big, TotalLines: 1000,
			StartLine: 1, EndLine: 1, Cut: true, Content: "x\n", Size: 2000}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got FileText
			text := toolOK(t, cs, "read_file", tt.args, &got)
			wantText := tt.want.Content
			tt.want.Content = "" // the text travels once, in the content block
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreUnexported(FileText{})); diff != "" {
				t.Errorf("result mismatch (-want +got):\n%s", diff)
			}
			if wantText != "" && !strings.HasSuffix(text, "\n"+wantText) {
				t.Errorf("text %q does not end with the content %q", text, wantText)
			}
			if tt.want.Cut && !strings.Contains(text, "lines ") {
				t.Errorf("text does not say it was cut: %q", text)
			}
			if tt.want.Binary && strings.Contains(text, "PNG") {
				t.Errorf("binary dumped: %q", text)
			}
		})
	}
	for _, tt := range []struct {
		name    string
		args    ReadFileArgs
		wantErr string
	}{
		{"head and tail", ReadFileArgs{Path: main, Head: 1, Tail: 1}, "not both"},
		{"start after end", ReadFileArgs{Path: main, StartLine: 4, EndLine: 2}, "after end_line"},
		{"start past the end", ReadFileArgs{Path: main, StartLine: 9}, "past the end"},
		{"too large", ReadFileArgs{Path: big}, "read limit of 1 KiB"},
		{"large window too large", ReadFileArgs{Path: big, Head: 600}, "above the read limit"},
		{"large tail too large", ReadFileArgs{Path: big, Tail: 600}, "above the read limit"},
		{"large start past the end", ReadFileArgs{Path: big, StartLine: 1001}, "past the end"},
		{"directory", ReadFileArgs{Path: filepath.Join(root, "src")}, "is a directory"},
		{"fifo", ReadFileArgs{Path: filepath.Join(root, "fifo")}, "not a regular file"},
		{"missing", ReadFileArgs{Path: filepath.Join(root, "nope")}, "no such file"},
		{"outside", ReadFileArgs{Path: filepath.Join(outside, "secret.txt")}, "no such file"},
		{"dotdot", ReadFileArgs{Path: "../outside/secret.txt"}, "no such file"},
		{"symlink outside", ReadFileArgs{Path: filepath.Join(root, "link-outside")}, "no such file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := toolErr(t, cs, "read_file", tt.args)
			if !strings.Contains(text, tt.wantErr) || strings.Contains(text, "secret\n") {
				t.Errorf("error %q, want %q", text, tt.wantErr)
			}
			if tt.args.Path != filepath.Join(outside, "secret.txt") && strings.Contains(text, outside) {
				t.Errorf("error reveals the outside path: %q", text)
			}
		})
	}
	t.Run("outside reads like missing", func(t *testing.T) {
		a := toolErr(t, cs, "read_file", ReadFileArgs{Path: filepath.Join(outside, "secret.txt")})
		b := toolErr(t, cs, "read_file", ReadFileArgs{Path: filepath.Join(root, "secret.txt")})
		a = strings.ReplaceAll(a, filepath.Join(outside, "secret.txt"), "P")
		b = strings.ReplaceAll(b, filepath.Join(root, "secret.txt"), "P")
		if a != b {
			t.Errorf("outside: %q, missing: %q", a, b)
		}
	})
}

func TestReadFiles(t *testing.T) {
	root, _ := testTree(t)
	cs := connect(t, newFiles(t, false, root), legacy)
	var got FilesText
	text := toolOK(t, cs, "read_files", ReadFilesArgs{Paths: []string{"a.txt", "nope.txt", "src/util/helper.go"}}, &got)
	if len(got.Files) != 3 {
		t.Fatalf("%d results, want 3", len(got.Files))
	}
	if got.Files[0].TotalLines != 2 || got.Files[2].TotalLines != 4 {
		t.Errorf("files 1 and 3: %+v, %+v", got.Files[0], got.Files[2])
	}
	if !strings.Contains(got.Files[1].Error, "nope.txt") {
		t.Errorf("file 2: %+v", got.Files[1])
	}
	if !strings.Contains(text, "hello\nworld\n") || !strings.Contains(text, "hello helper") || !strings.Contains(text, "error: nope.txt") {
		t.Errorf("text: %q", text)
	}
}

func TestFileInfo(t *testing.T) {
	root, outside := testTree(t)
	cs := connect(t, newFiles(t, false, root), modern)
	for _, tt := range []struct {
		path string
		want Info
	}{
		{"a.txt", Info{Type: "file", Size: 12, MIMEType: "text/plain", IsText: true, Lines: 2}},
		{"big.txt", Info{Type: "file", Size: 2000, MIMEType: "text/plain", IsText: true, Lines: 1000,
			Note: "large file: judged text by its first 8000 bytes"}},
		{"image.png", Info{Type: "file", Size: int64(len(pngBytes)), MIMEType: "image/png"}},
		{"src", Info{Type: "dir"}},
		{"link-inside", Info{Type: "symlink", Target: "src/main.go"}},
		{"link-outside", Info{Type: "symlink"}},
		{"dangling", Info{Type: "symlink"}},
	} {
		t.Run(tt.path, func(t *testing.T) {
			var got Info
			text := toolOK(t, cs, "file_info", InfoArgs{Path: tt.path}, &got)
			if got.Path != filepath.Join(root, tt.path) || got.Mode == "" || got.Modified == "" {
				t.Errorf("path %q mode %q modified %q", got.Path, got.Mode, got.Modified)
			}
			got.Path, got.Mode, got.Modified = "", "", ""
			if tt.want.Type != "file" {
				got.Size = 0
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("info mismatch (-want +got):\n%s", diff)
			}
			if strings.Contains(text, outside) {
				t.Errorf("text reveals the outside path: %q", text)
			}
		})
	}
}
