package fsres

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wantFiles is what resources/list shows of the fixture, in order: no
// ignored files, no FIFO, no symlink that leaves the root or dangles.
var wantFiles = []string{
	".gitignore", "a.txt", "big.txt", "docs/readme.md", "empty.txt",
	"image.png", "link-inside", "src/main.go", "src/util/helper.go",
}

// listAll pages through resources/list and returns every resource.
func listAll(t *testing.T, cs *mcp.ClientSession) ([]*mcp.Resource, int) {
	t.Helper()
	var all []*mcp.Resource
	cursor, pages := "", 0
	for {
		res, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: cursor})
		if err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
		if res.CacheScope != "private" {
			t.Errorf("cacheScope = %q, want private", res.CacheScope)
		}
		pages++
		all = append(all, res.Resources...)
		if res.NextCursor == "" {
			return all, pages
		}
		cursor = res.NextCursor
	}
}

func TestListResourcesPages(t *testing.T) {
	for _, version := range []string{legacy, modern} {
		t.Run(version, func(t *testing.T) {
			root, _ := testTree(t)
			cs := connect(t, newFiles(t, false, root), version)
			all, pages := listAll(t, cs)
			var names []string
			for _, r := range all {
				names = append(names, r.Name)
				if want := roots.URI(filepath.Join(root, filepath.FromSlash(r.Name))); r.URI != want {
					t.Errorf("%s: uri %q, want %q", r.Name, r.URI, want)
				}
				if _, err := time.Parse(time.RFC3339, r.Annotations.LastModified); err != nil {
					t.Errorf("%s: lastModified: %v", r.Name, err)
				}
			}
			if diff := cmp.Diff(wantFiles, names); diff != "" {
				t.Errorf("names mismatch (-want +got):\n%s", diff)
			}
			if want := (len(wantFiles) + 2) / 3; pages != want {
				t.Errorf("%d pages, want %d", pages, want)
			}
			byName := map[string]*mcp.Resource{}
			for _, r := range all {
				byName[r.Name] = r
			}
			if r := byName["src/main.go"]; r.MIMEType != "text/x-go" || r.Size == 0 {
				t.Errorf("src/main.go: mime %q size %d", r.MIMEType, r.Size)
			}
			if r := byName["image.png"]; r.MIMEType != "image/png" || r.Size != int64(len(pngBytes)) {
				t.Errorf("image.png: mime %q size %d", r.MIMEType, r.Size)
			}
		})
	}
}

func TestListResourcesSeveralRoots(t *testing.T) {
	root, outside := testTree(t)
	f := New(Options{Scope: scope.Static(testScope(t, root, outside)), PageSize: 4})
	cs := connect(t, f, modern)
	all, _ := listAll(t, cs)
	var names []string
	for _, r := range all {
		names = append(names, r.Name)
	}
	var want []string
	for _, n := range wantFiles {
		want = append(want, "root/"+n)
	}
	want = append(want, "outside/secret.txt")
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("names mismatch (-want +got):\n%s", diff)
	}
}

func TestListResourcesBadCursor(t *testing.T) {
	root, outside := testTree(t)
	f := newFiles(t, false, root)
	other := New(Options{Scope: scope.Static(testScope(t, root))})
	writeTxtar(t, outside, "-- second.txt --\n")
	stale := New(Options{Scope: scope.Static(testScope(t, outside)), PageSize: 1})
	staleRes, err := stale.ListResources(context.Background(), &mcp.ListResourcesRequest{Params: &mcp.ListResourcesParams{}})
	if err != nil {
		t.Fatal(err)
	}
	good := f.encodeCursor(cursor{Root: 0, RootURI: roots.URI(root), Last: "a.txt"})
	raw, _ := base64.RawURLEncoding.DecodeString(good)
	raw[len(raw)-cursorMACLen-1] ^= 1 // change the path, keep the MAC
	cs := connect(t, f, modern)
	for name, c := range map[string]string{
		"garbage":       "!!not base64!!",
		"short":         "AAAA",
		"tampered":      base64.RawURLEncoding.EncodeToString(raw),
		"other process": other.encodeCursor(cursor{Root: 0, RootURI: roots.URI(root), Last: "a.txt"}),
		"root index":    f.encodeCursor(cursor{Root: 5, RootURI: roots.URI(root), Last: "a.txt"}),
		"other root":    f.encodeCursor(cursor{Root: 0, RootURI: roots.URI(outside), Last: "a.txt"}),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: c})
			if got := wireCode(err); got != jsonrpc.CodeInvalidParams {
				t.Errorf("code %d (%v), want %d", got, err, jsonrpc.CodeInvalidParams)
			}
		})
	}
	t.Run("stale", func(t *testing.T) {
		if staleRes.NextCursor == "" {
			t.Fatal("no cursor from a one-file page")
		}
		stale.opts.Scope = scope.Static(testScope(t, root)) // the roots changed
		_, err := stale.ListResources(context.Background(), &mcp.ListResourcesRequest{Params: &mcp.ListResourcesParams{Cursor: staleRes.NextCursor}})
		if wireCode(err) != jsonrpc.CodeInvalidParams {
			t.Errorf("stale cursor: %v", err)
		}
	})
	t.Run("good", func(t *testing.T) {
		res, err := cs.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: good})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Resources) == 0 || res.Resources[0].Name != "big.txt" {
			t.Errorf("page after a.txt starts with %v", res.Resources)
		}
	})
}

func TestComparePaths(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"a/b", "a-c", -1},
		{"a", "a/b", -1},
		{"a/b", "a", 1},
		{"b", "a/z", 1},
		{"x.go", "x.go", 0},
		{"src/util/helper.go", "src/main.go", 1},
	} {
		if got := comparePaths(tt.a, tt.b); got != tt.want {
			t.Errorf("comparePaths(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestListResourcesCancelled(t *testing.T) {
	root, _ := testTree(t)
	f := newFiles(t, false, root)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.ListResources(ctx, &mcp.ListResourcesRequest{Params: &mcp.ListResourcesParams{}}); err == nil {
		t.Error("a cancelled resources/list succeeded")
	}
}

func TestInvalidate(t *testing.T) {
	root, _ := testTree(t)
	f := newFiles(t, false, root)
	cs := connect(t, f, modern)
	var before, after DirListing
	toolOK(t, cs, "list_directory", ListDirArgs{Path: root}, &before)
	must(t, os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\nbuild/\n*.txt\n"), 0o644))
	f.Invalidate(filepath.Join(root, "src")) // below the root: the root's matcher is stale too
	f.Invalidate(root)
	toolOK(t, cs, "list_directory", ListDirArgs{Path: root}, &after)
	if got, want := after.Ignored, before.Ignored+3; got != want { // a.txt, big.txt, empty.txt
		t.Errorf("after Invalidate: %d ignored, want %d", got, want)
	}
}

func TestListResourcesFileRoot(t *testing.T) {
	root, outside := testTree(t)
	sc := testScope(t, filepath.Join(outside, "secret.txt"), filepath.Join(root, "docs"))
	f := New(Options{Scope: scope.Static(sc), PageSize: 1})
	cs := connect(t, f, legacy)
	all, pages := listAll(t, cs)
	var got []string
	for _, r := range all {
		got = append(got, r.Name+" "+r.URI)
	}
	want := []string{
		sc.Roots()[0].Name + " " + roots.URI(filepath.Join(outside, "secret.txt")),
		"docs/readme.md " + roots.URI(filepath.Join(root, "docs", "readme.md")),
	}
	if diff := cmp.Diff(want, got); diff != "" || pages != 2 {
		t.Errorf("%d pages; mismatch (-want +got):\n%s", pages, diff)
	}
}

// A tracked file is listed even when .gitignore matches it (git's rule).
func TestListResourcesTrackedIgnored(t *testing.T) {
	root, _ := testTree(t)
	repo, err := git.PlainInit(root, false)
	must(t, err)
	wt, err := repo.Worktree()
	must(t, err)
	_, err = wt.Add("build/out.txt")
	must(t, err)
	cs := connect(t, newFiles(t, false, root), modern)
	all, _ := listAll(t, cs)
	var names []string
	for _, r := range all {
		names = append(names, r.Name)
	}
	want := slices.Insert(slices.Clone(wantFiles), 3, "build/out.txt")
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("names mismatch (-want +got):\n%s", diff)
	}
}
