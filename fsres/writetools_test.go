package fsres

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// noTemps fails when a temporary file of writeAtomic is left in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	must(t, err)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".grove-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	must(t, err)
	return string(data)
}

func TestWriteFile(t *testing.T) {
	root, outside := testTree(t)
	cs := connect(t, newFiles(t, false, root), modern)
	var got Written
	toolOK(t, cs, "write_file", WriteArgs{Path: "new.txt", Content: "new\n"}, &got)
	if !got.Created || got.Bytes != 4 || readString(t, filepath.Join(root, "new.txt")) != "new\n" {
		t.Errorf("create: %+v", got)
	}
	must(t, os.Chmod(filepath.Join(root, "a.txt"), 0o600))
	got = Written{}
	toolOK(t, cs, "write_file", WriteArgs{Path: "a.txt", Content: "replaced"}, &got)
	info, err := os.Stat(filepath.Join(root, "a.txt"))
	must(t, err)
	if got.Created || readString(t, filepath.Join(root, "a.txt")) != "replaced" || info.Mode().Perm() != 0o600 {
		t.Errorf("replace: %+v, mode %v", got, info.Mode())
	}
	noTemps(t, root)

	// A directory swapped for a symlink to outside must not receive the write.
	must(t, os.Symlink(outside, filepath.Join(root, "swapped")))
	for _, tt := range []struct{ path, wantErr string }{
		{"swapped/secret.txt", "no such file"},
		{"swapped/new.txt", "no such file"},
		{"src", "is a directory"},
		{"link-inside", "is a symlink"},
		{"nodir/x.txt", "parent directory does not exist"},
		{filepath.Join(outside, "x.txt"), "no such file"},
		{"fifo", "not a regular file"},
	} {
		t.Run(tt.path, func(t *testing.T) {
			msg := toolErr(t, cs, "write_file", WriteArgs{Path: tt.path, Content: "pwned"})
			if !strings.Contains(msg, tt.wantErr) || strings.Contains(msg, outside) && !strings.HasPrefix(tt.path, outside) {
				t.Errorf("error %q, want %q", msg, tt.wantErr)
			}
		})
	}
	if readString(t, filepath.Join(outside, "secret.txt")) != "secret\n" {
		t.Error("the outside file changed")
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); err == nil {
		t.Error("a file was created outside")
	}
	noTemps(t, outside)
	noTemps(t, root)
}

func TestEditFile(t *testing.T) {
	root, _ := testTree(t)
	cs := connect(t, newFiles(t, false, root), modern)
	main := filepath.Join(root, "src", "main.go")
	before := readString(t, main)
	edits := []EditOp{{OldText: `println("Hello")`, NewText: `println("Bye")`}, {OldText: "Bye", NewText: "Ciao"}}

	var got Edited
	text := toolOK(t, cs, "edit_file", EditArgs{Path: main, Edits: edits, DryRun: true}, &got)
	wantDiff := "--- a/src/main.go\n+++ b/src/main.go\n@@ -1,5 +1,5 @@\n package main\n \n func main() {\n-\tprintln(\"Hello\")\n+\tprintln(\"Ciao\")\n }\n"
	if diff := cmp.Diff(wantDiff, got.Diff); diff != "" || got.Written || !strings.Contains(text, "dry run") {
		t.Errorf("dry run (written %v) diff mismatch (-want +got):\n%s", got.Written, diff)
	}
	if readString(t, main) != before {
		t.Fatal("dry run wrote the file")
	}
	got = Edited{}
	toolOK(t, cs, "edit_file", EditArgs{Path: main, Edits: edits}, &got)
	if !got.Written || got.Diff != wantDiff || !strings.Contains(readString(t, main), `println("Ciao")`) {
		t.Errorf("edit: %+v", got)
	}
	noTemps(t, filepath.Dir(main))
	after := readString(t, main)
	for _, tt := range []struct {
		name    string
		edits   []EditOp
		wantErr string
	}{
		{"missing", []EditOp{{OldText: "package main", NewText: "package x"}, {OldText: "absent", NewText: "y"}}, "edit 2: old_text not found"},
		{"ambiguous", []EditOp{{OldText: "main", NewText: "x"}}, "edit 1: old_text occurs 2 times"},
		{"empty", []EditOp{{OldText: "", NewText: "x"}}, "edit 1: old_text is empty"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if msg := toolErr(t, cs, "edit_file", EditArgs{Path: main, Edits: tt.edits}); !strings.Contains(msg, tt.wantErr) {
				t.Errorf("error %q, want %q", msg, tt.wantErr)
			}
			if readString(t, main) != after {
				t.Error("a failed edit changed the file")
			}
		})
	}
	if msg := toolErr(t, cs, "edit_file", EditArgs{Path: "image.png", Edits: edits}); !strings.Contains(msg, "not a UTF-8 text file") {
		t.Errorf("binary: %q", msg)
	}
}

func TestCreateDirectoryAndMove(t *testing.T) {
	root, outside := testTree(t)
	cs := connect(t, newFiles(t, false, root), modern)
	var dir DirCreated
	toolOK(t, cs, "create_directory", DirArgs{Path: "x/y/z"}, &dir)
	if info, err := os.Stat(filepath.Join(root, "x", "y", "z")); err != nil || !info.IsDir() || !dir.Created {
		t.Fatalf("create_directory: %v, %+v", err, dir)
	}
	dir = DirCreated{}
	toolOK(t, cs, "create_directory", DirArgs{Path: "x/y/z"}, &dir)
	if dir.Created {
		t.Error("existing directory reported as created")
	}
	toolErr(t, cs, "create_directory", DirArgs{Path: "a.txt"})
	toolErr(t, cs, "create_directory", DirArgs{Path: filepath.Join(outside, "evil")})

	var mv Moved
	toolOK(t, cs, "move_file", MoveArgs{Source: "a.txt", Destination: "x/y/a.txt"}, &mv)
	if readString(t, filepath.Join(root, "x", "y", "a.txt")) != "hello\nworld\n" {
		t.Error("moved file has other content")
	}
	if _, err := os.Lstat(filepath.Join(root, "a.txt")); err == nil {
		t.Error("source still exists")
	}
	toolOK(t, cs, "move_file", MoveArgs{Source: "x/y/z", Destination: "zdir"}, &mv)
	for _, tt := range []struct{ src, dst, wantErr string }{
		{"empty.txt", "big.txt", "already exists"},
		{"docs", "src", "already exists"},
		{"empty.txt", "src", "already exists"},
		{"empty.txt", filepath.Join(outside, "secret.txt"), "no such file"},
		{filepath.Join(outside, "secret.txt"), "stolen.txt", "no such file"},
		{".", "elsewhere", "is a root"},
	} {
		t.Run(tt.src+"->"+tt.dst, func(t *testing.T) {
			if msg := toolErr(t, cs, "move_file", MoveArgs{Source: tt.src, Destination: tt.dst}); !strings.Contains(msg, tt.wantErr) {
				t.Errorf("error %q, want %q", msg, tt.wantErr)
			}
		})
	}
	if readString(t, filepath.Join(root, "big.txt")) != strings.Repeat("x\n", 1000) {
		t.Error("move overwrote big.txt")
	}
}

func TestReadOnlyHidesWriteTools(t *testing.T) {
	root, _ := testTree(t)
	for _, readOnly := range []bool{true, false} {
		cs := connect(t, newFiles(t, readOnly, root), modern)
		res, err := cs.ListTools(context.Background(), &mcp.ListToolsParams{})
		must(t, err)
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			a := tool.Annotations
			if a == nil || a.OpenWorldHint == nil || *a.OpenWorldHint {
				t.Errorf("%s: openWorldHint must be false", tool.Name)
			}
			write := slices.Contains([]string{"write_file", "edit_file", "create_directory", "move_file"}, tool.Name)
			if a != nil && a.ReadOnlyHint == write {
				t.Errorf("%s: readOnlyHint %v", tool.Name, a.ReadOnlyHint)
			}
		}
		slices.Sort(names)
		want := []string{"directory_tree", "file_info", "grep", "list_directory", "read_file", "read_files", "search_files"}
		if !readOnly {
			want = append(want, "create_directory", "edit_file", "move_file", "write_file")
			slices.Sort(want)
		}
		if diff := cmp.Diff(want, names); diff != "" {
			t.Errorf("read-only %v: tools mismatch (-want +got):\n%s", readOnly, diff)
		}
	}
}

func TestApplyEdits(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		edits      []EditOp
		want       string
	}{
		{"in order", "a b c", []EditOp{{"a", "x"}, {"x b", "y"}}, "y c"},
		{"crlf", "one\r\ntwo\r\nthree\r\n", []EditOp{{"one\ntwo", "1\n2"}}, "1\r\n2\r\nthree\r\n"},
		{"lf untouched", "one\ntwo\n", []EditOp{{"one\ntwo", "1\n2"}}, "1\n2\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := applyEdits(tt.text, tt.edits)
			if err != nil || got != tt.want {
				t.Errorf("applyEdits = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestTildePathsAreNotExpanded(t *testing.T) {
	root, _ := testTree(t)
	cs := connect(t, newFiles(t, false, root), modern)
	for _, tt := range []struct {
		tool string
		args any
	}{
		{"create_directory", DirArgs{Path: "~/newrepo"}},
		{"create_directory", DirArgs{Path: "~root/d"}},
		{"write_file", WriteArgs{Path: "~/f.txt", Content: "x"}},
		{"move_file", MoveArgs{Source: "a.txt", Destination: "~/a.txt"}},
		{"list_directory", map[string]any{"path": "~"}},
	} {
		if msg := toolErr(t, cs, tt.tool, tt.args); !strings.Contains(msg, "not shell-expanded") {
			t.Errorf("%s %+v: %q, want a refusal saying paths are not shell-expanded", tt.tool, tt.args, msg)
		}
	}
	for _, name := range []string{"~", "~root"} {
		if _, err := os.Lstat(filepath.Join(root, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s in the root: %v, want nothing created", name, err)
		}
	}
	toolOK(t, cs, "create_directory", DirArgs{Path: "./~tilde-named"}, nil)
}
