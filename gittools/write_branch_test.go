package gittools

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/refs"

	"github.com/grove-mcp/grove/gittools/internal/writecmd"

	"github.com/google/go-cmp/cmp"
)

func TestGitCreateBranch(t *testing.T) {
	f := newBranchFixture(t)
	var out writecmd.CreateBranchOut
	f.ok("git_create_branch", map[string]any{"repo_path": f.dir, "branch_name": "feature/x"}, &out)
	if got, want := f.git("rev-parse", "feature/x"), f.git("rev-parse", "HEAD"); got != want || out.Commit != want {
		t.Errorf("feature/x = %s (reported %s), want HEAD %s", got, out.Commit, want)
	}
	f.ok("git_create_branch", map[string]any{"repo_path": f.dir, "branch_name": "from-other", "base_branch": "other"}, nil)
	if got, want := f.git("rev-parse", "from-other"), f.git("rev-parse", "other"); got != want {
		t.Errorf("from-other = %s, want %s", got, want)
	}
	if got := f.git("symbolic-ref", "HEAD"); got != "refs/heads/master" {
		t.Errorf("creating a branch moved HEAD to %s", got)
	}
	before := f.git("for-each-ref")
	for _, tt := range []struct{ name, base, wantErr string }{
		{"-f", "", "must not start with '-'"},
		{"--force", "", "must not start with '-'"},
		{"a..b", "", "'..'"},
		{"x.lock", "", ".lock"},
		{"a@{1}", "", "'@{'"},
		{"trailing/", "", "end with '/'"},
		{"ctl\x01x", "", "must not contain"},
		{"sp ace", "", "must not contain"},
		{"master", "", "already exists"},
		{"feature", "", "clashes with the existing ref"},
		{"feature/x/y", "", "clashes with the existing ref"},
		{"ok", "-x", "must not start with '-'"},
		{"ok", "--all", "must not start with '-'"},
		{"ok", "no-such-rev", "unknown revision"},
	} {
		t.Run(fmt.Sprintf("%q from %q", tt.name, tt.base), func(t *testing.T) {
			f.fails("git_create_branch", map[string]any{"repo_path": f.dir, "branch_name": tt.name, "base_branch": tt.base}, tt.wantErr)
		})
	}
	if diff := cmp.Diff(before, f.git("for-each-ref")); diff != "" {
		t.Errorf("refused calls changed refs (-before +after):\n%s", diff)
	}
}

func TestGitTagCreate(t *testing.T) {
	f := newBranchFixture(t)
	var out refs.TagOut
	f.ok("git_tag", map[string]any{"repo_path": f.dir, "name": "v1.0", "message": "Release 1.0\n\nNotes."}, &out)
	if got := f.git("cat-file", "-t", "v1.0"); got != "tag" {
		t.Errorf("v1.0 is a %s, want an annotated tag", got)
	}
	got := f.git("for-each-ref", "--format=%(taggername) %(taggeremail)|%(subject)|%(*objectname)", "refs/tags/v1.0")
	want := fmt.Sprintf("%s <%s>|Release 1.0|%s", testCommitterName, testCommitterEmail, f.git("rev-parse", "HEAD"))
	if got != want {
		t.Errorf("tag = %q, want %q", got, want)
	}
	if !out.Created || len(out.Tags) != 1 || !out.Tags[0].Annotated || out.Tags[0].Subject != "Release 1.0" {
		t.Errorf("TagOut = %+v", out)
	}
	out = refs.TagOut{}
	f.ok("git_tag", map[string]any{"repo_path": f.dir, "name": "nomsg", "revision": "other"}, &out)
	got = f.git("for-each-ref", "--format=%(objecttype) %(taggername)|%(contents)|%(*objectname)", "refs/tags/nomsg")
	want = fmt.Sprintf("tag %s|nomsg\n|%s", testCommitterName, f.git("rev-parse", "other"))
	if got != want {
		t.Errorf("tag without a message = %q, want an annotated tag %q", got, want)
	}
	if !out.Created || len(out.Tags) != 1 || !out.Tags[0].Annotated || out.Tags[0].Subject != "nomsg" {
		t.Errorf("TagOut = %+v", out)
	}
	f.git("fsck", "--strict")
	f.fails("git_tag", map[string]any{"repo_path": f.dir, "name": "v1.0"}, "already exists")
	f.fails("git_tag", map[string]any{"repo_path": f.dir, "name": "blank", "message": " \n\n"}, "message is empty")
	f.fails("git_tag", map[string]any{"repo_path": f.dir, "name": "--delete"}, "must not start with '-'")
	f.fails("git_tag", map[string]any{"repo_path": f.dir, "name": "bad..name"}, "'..'")
	f.fails("git_tag", map[string]any{"repo_path": f.dir, "name": "ok", "revision": "-n"}, "must not start with '-'")
}

func TestWriteToolsConcurrent(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"base.txt": "base\n"})
	const n = 8
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("f%d.txt", i)] = fmt.Sprintf("%d\n", i)
	}
	f.write(files)
	var wg sync.WaitGroup
	errs := make(chan string, 2*n)
	for i := range n {
		wg.Go(func() {
			if text, isErr := f.call("git_add", map[string]any{"repo_path": f.dir, "files": []string{fmt.Sprintf("f%d.txt", i)}}, nil); isErr {
				errs <- text
			}
		})
		wg.Go(func() {
			if text, isErr := f.call("git_create_branch", map[string]any{"repo_path": f.dir, "branch_name": fmt.Sprintf("b%d", i)}, nil); isErr {
				errs <- text
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent call failed: %s", e)
	}
	if got := strings.Count(f.git("diff", "--cached", "--name-only"), ".txt"); got != n {
		t.Errorf("%d files staged, want %d (a concurrent git_add lost another's update)", got, n)
	}
	if got := strings.Count(f.git("branch", "--list", "b*"), "b"); got != n {
		t.Errorf("%d branches, want %d", got, n)
	}
	f.ok("git_commit", map[string]any{"repo_path": f.dir, "message": "all"}, nil)
	f.git("fsck", "--strict")
}

func TestWriteToolAnnotations(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a": "a\n"})
	res, err := f.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tool := range res.Tools {
		if a := tool.Annotations; a != nil && a.DestructiveHint != nil && a.OpenWorldHint != nil && !a.ReadOnlyHint {
			got[tool.Name] = fmt.Sprintf("destructive=%v idempotent=%v openWorld=%v", *a.DestructiveHint, a.IdempotentHint, *a.OpenWorldHint)
		}
	}
	want := map[string]string{
		"git_add":           "destructive=false idempotent=true openWorld=false",
		"git_reset":         "destructive=true idempotent=true openWorld=false",
		"git_commit":        "destructive=false idempotent=false openWorld=false",
		"git_create_branch": "destructive=false idempotent=false openWorld=false",
		"git_checkout":      "destructive=true idempotent=true openWorld=false",
		"git_init":          "destructive=false idempotent=false openWorld=false",
		"git_tag":           "destructive=false idempotent=false openWorld=false",
		"git_merge":         "destructive=true idempotent=false openWorld=false",
		"git_cherry_pick":   "destructive=true idempotent=false openWorld=false",
		"git_revert":        "destructive=true idempotent=false openWorld=false",
		"git_stash":         "destructive=true idempotent=false openWorld=false",
		"git_restore":       "destructive=true idempotent=true openWorld=false",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("write tool annotations mismatch (-want +got):\n%s", diff)
	}
}
