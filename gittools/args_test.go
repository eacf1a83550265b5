package gittools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// A path argument starting with "~" is refused, by every tool and argument that takes a path, and nothing
// is created: "~/newrepo" used to become a directory named "~" inside the root (issue 11 item 12).
func TestTildePathsRefused(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"git_init", map[string]any{"repo_path": "~/newrepo"}},
		{"git_init", map[string]any{"repo_path": "~"}},
		{"git_init", map[string]any{"repo_path": "~root/x"}},
		{"git_status", map[string]any{"repo_path": "~"}},
		{"git_log", map[string]any{"repo_path": "~/x"}},
		{"git_log", map[string]any{"path": "~/a.txt"}},
		{"git_show", map[string]any{"revision": "HEAD", "path": "~user/a.txt"}},
		{"git_diff", map[string]any{"path": "~"}},
		{"git_blame", map[string]any{"path": "~/a.txt"}},
		{"git_add", map[string]any{"files": []string{"~/a.txt"}}},
		{"git_reset", map[string]any{"files": []string{"~"}}},
	} {
		text, isErr := callWithin(t, f.cs, 20*time.Second, c.name, c.args)
		if !isErr || !strings.Contains(text, "paths are not shell-expanded") {
			t.Errorf("%s %v: %q (isError %v), want it refused as not shell-expanded", c.name, c.args, text, isErr)
		}
	}
	if _, err := os.Lstat(filepath.Join(f.root, "~")); err == nil {
		t.Error(`a directory named "~" was created in the root`)
	}
	if text, isErr := callWithin(t, f.cs, 20*time.Second, "git_show", map[string]any{"revision": "HEAD", "path": "./~nothing"}); strings.Contains(text, "shell-expanded") {
		t.Errorf("./~name was refused as a home path: %q (isError %v)", text, isErr)
	}
}

// enumerated matches a description that lists a fixed set of values: "local (default), remote or all".
var enumerated = regexp.MustCompile(`^([a-z_]+)( \(default\))?(, [a-z_]+( \(default\))?)*,? or [a-z_]+( \(default\))?$`)

// Every string argument of every git tool that is documented with a fixed set of values carries it as an
// enum in its input schema, and a call with a value outside it (the empty string too) is refused
// (issue 11 item 13: git_branch accepted branch_type "").
func TestEnumArgumentsDeclaredAndEnforced(t *testing.T) {
	f := newWriteFixture(t, map[string]string{"a.txt": "a\n"})
	res, err := f.cs.ListTools(testCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	enums := 0
	for _, tool := range res.Tools {
		var schema struct {
			Properties map[string]struct {
				Type        any      `json:"type"`
				Description string   `json:"description"`
				Enum        []string `json:"enum"`
			} `json:"properties"`
		}
		data, _ := json.Marshal(tool.InputSchema)
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatal(err)
		}
		for name, p := range schema.Properties {
			if p.Type != "string" {
				continue
			}
			if enumerated.MatchString(p.Description) && len(p.Enum) == 0 {
				t.Errorf("%s.%s is documented as %q but has no enum", tool.Name, name, p.Description)
			}
			if len(p.Enum) == 0 {
				continue
			}
			enums++
			for _, v := range p.Enum {
				if !strings.Contains(p.Description, v) {
					t.Errorf("%s.%s: enum value %q is not in its description %q", tool.Name, name, v, p.Description)
				}
			}
			for _, bad := range []string{"", "LOCAL", "bogus"} {
				if slices.Contains(p.Enum, bad) {
					continue
				}
				text, isErr := callWithin(t, f.cs, 20*time.Second, tool.Name, map[string]any{name: bad})
				if !isErr {
					t.Errorf("%s with %s=%q: accepted (%q), want it refused", tool.Name, name, bad, text)
				}
			}
		}
	}
	if enums == 0 {
		t.Error("no tool argument has an enum; git_branch.branch_type should")
	}
}
