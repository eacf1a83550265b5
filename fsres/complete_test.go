package fsres

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestComplete(t *testing.T) {
	root, outside := testTree(t)
	for i := range 150 {
		writeTxtar(t, filepath.Join(root, "many"), fmt.Sprintf("-- f%03d.txt --\n", i))
	}
	cs := connect(t, newFiles(t, false, root), modern)
	r := strings.TrimPrefix(filepath.ToSlash(root), "/")
	complete := func(ref, value string) *mcp.CompletionResultDetails {
		t.Helper()
		res, err := cs.Complete(context.Background(), &mcp.CompleteParams{
			Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: ref},
			Argument: mcp.CompleteParamsArgument{Name: "path", Value: value},
		})
		if err != nil {
			t.Fatal(err)
		}
		return &res.Completion
	}
	for _, tt := range []struct {
		name, value string
		want        []string
	}{
		{"empty offers the root", "", []string{r + "/"}},
		{"prefix of the root", r[:3], []string{r + "/"}},
		{"root itself", r, []string{r + "/"}},
		{"children, ignored left out", r + "/", []string{r + "/docs/", r + "/many/", r + "/src/",
			r + "/.gitignore", r + "/a.txt", r + "/big.txt", r + "/dangling", r + "/empty.txt", r + "/fifo",
			r + "/image.png", r + "/link-inside", r + "/link-outside"}},
		{"name prefix", r + "/s", []string{r + "/src/"}},
		{"deeper", r + "/src/u", []string{r + "/src/util/"}},
		{"ignored dir", r + "/build/", nil},
		{"outside", strings.TrimPrefix(filepath.ToSlash(outside), "/") + "/", nil},
		{"escape", r + "/../outside/", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := complete(fileTemplate, tt.value)
			want := tt.want
			if want == nil {
				want = []string{}
			}
			slices.Sort(want)
			if diff := cmp.Diff(want, got.Values); diff != "" {
				t.Errorf("values mismatch (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("capped", func(t *testing.T) {
		got := complete(fileTemplate, r+"/many/f")
		if len(got.Values) != maxCompletions || !got.HasMore || got.Total != 150 {
			t.Errorf("%d values, hasMore %v, total %d; want 100, true, 150", len(got.Values), got.HasMore, got.Total)
		}
	})
	t.Run("other template", func(t *testing.T) {
		if got := complete("git:///{+path}", r+"/"); len(got.Values) != 0 {
			t.Errorf("values for another template: %v", got.Values)
		}
	})
}
