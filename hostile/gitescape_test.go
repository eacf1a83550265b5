package hostile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Secrets of the repository outside the root; no answer may hold them.
const (
	secretContent = "TOPSECRET-CONTENT"
	secretMessage = "TOPSECRET-MESSAGE"
	secretName    = "topsecret-name.txt"
)

// Same class as item 7: a repository inside the root whose .git reaches
// outside it (a gitdir file, a symlinked .git or objects directory,
// alternates, commondir, core.worktree) gives away nothing that lies
// outside: no file content, commit message or file name from there appears
// in any answer, and grove writes nothing there.
func TestGitDirLeavingRoot(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, proj, outside string)
	}{
		{"gitdir file", func(t *testing.T, proj, outside string) {
			writeFiles(t, proj, map[string]string{".git": "gitdir: " + filepath.Join(outside, "real", ".git") + "\n"})
		}},
		{"relative gitdir file", func(t *testing.T, proj, outside string) {
			rel, err := filepath.Rel(proj, filepath.Join(outside, "real", ".git"))
			if err != nil {
				t.Fatal(err)
			}
			writeFiles(t, proj, map[string]string{".git": "gitdir: " + rel + "\n"})
		}},
		{"symlinked .git", func(t *testing.T, proj, outside string) {
			symlink(t, filepath.Join(outside, "real", ".git"), filepath.Join(proj, ".git"))
		}},
		{"symlinked objects", func(t *testing.T, proj, outside string) {
			localRepoPointingAtSecret(t, proj, outside)
			gitDir := filepath.Join(proj, ".git")
			if err := os.RemoveAll(filepath.Join(gitDir, "objects")); err != nil {
				t.Fatal(err)
			}
			symlink(t, filepath.Join(outside, "real", ".git", "objects"), filepath.Join(gitDir, "objects"))
		}},
		{"alternates", func(t *testing.T, proj, outside string) {
			localRepoPointingAtSecret(t, proj, outside)
			writeFiles(t, filepath.Join(proj, ".git", "objects", "info"), map[string]string{
				"alternates": filepath.Join(outside, "real", ".git", "objects") + "\n"})
		}},
		{"commondir", func(t *testing.T, proj, outside string) {
			localRepoPointingAtSecret(t, proj, outside)
			writeFiles(t, filepath.Join(proj, ".git"), map[string]string{"commondir": filepath.Join(outside, "real", ".git") + "\n"})
		}},
		{"core.worktree", func(t *testing.T, proj, outside string) {
			commitFiles(t, proj, map[string]string{"a.txt": "alpha\n"}, "first")
			cfg := filepath.Join(proj, ".git", "config")
			b, err := os.ReadFile(cfg)
			if err != nil {
				t.Fatal(err)
			}
			b = append(b, fmt.Sprintf("[core]\n\tworktree = %s\n", filepath.Join(outside, "real"))...)
			if err := os.WriteFile(cfg, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			top := tempRoot(t)
			root, outside := filepath.Join(top, "root"), filepath.Join(top, "outside")
			proj := filepath.Join(root, "proj")
			commitFiles(t, filepath.Join(outside, "real"), map[string]string{secretName: secretContent + "\n"}, secretMessage)
			if err := os.MkdirAll(proj, 0o755); err != nil {
				t.Fatal(err)
			}
			tt.setup(t, proj, outside)
			before := snapshot(t, outside)

			s := legacy(t, root)
			for _, c := range []toolCase{
				{"git_status", map[string]any{}},
				{"git_log", map[string]any{}},
				{"git_show", map[string]any{"revision": "HEAD"}},
				{"git_show", map[string]any{"revision": "HEAD", "path": secretName}},
				{"git_diff", map[string]any{}},
				{"git_diff", map[string]any{"target": "HEAD"}},
				{"git_blame", map[string]any{"path": secretName}},
				{"git_branch", map[string]any{"branch_type": "all"}},
				{"git_tag", map[string]any{}},
				{"git_add", map[string]any{"files": []string{secretName}}},
				{"git_add", map[string]any{"files": []string{"."}}},
				{"git_commit", map[string]any{"message": "hostile"}},
				{"git_create_branch", map[string]any{"branch_name": "hostile"}},
				{"git_tag", map[string]any{"name": "hostile-tag"}},
				{"git_checkout", map[string]any{"branch": "master"}},
				{"git_reset", map[string]any{}},
				{"git_merge", map[string]any{"revision": "HEAD"}},
				{"git_merge", map[string]any{"action": "abort"}},
				{"git_cherry_pick", map[string]any{"revisions": []string{"HEAD"}}},
				{"git_revert", map[string]any{"revisions": []string{"HEAD"}}},
				{"git_stash", map[string]any{"include_untracked": true}},
				{"git_stash", map[string]any{"action": "list"}},
				{"git_restore", map[string]any{"paths": []string{"."}}},
			} {
				c.args["repo_path"] = proj
				r := s.callTool(c.tool, c.args)
				raw := withoutGitFileQuote(string(r.msg.Raw), proj)
				for _, secret := range []string{secretContent, secretMessage, secretName, outside} {
					if strings.Contains(raw, secret) {
						t.Errorf("%v gave away %q from outside the root: %.300s", c, secret, r.msg.Raw)
					}
				}
			}
			for name, args := range map[string]map[string]string{
				"review_commit":   {"repo_path": proj, "revision": "HEAD"},
				"review_changes":  {"repo_path": proj},
				"commit_message":  {"repo_path": proj},
				"explain_history": {"path": filepath.Join(proj, secretName)},
			} {
				m := s.call("prompts/get", map[string]any{"name": name, "arguments": args})
				raw := withoutGitFileQuote(string(m.Raw), proj)
				for _, secret := range []string{secretContent, secretMessage, outside} {
					if strings.Contains(raw, secret) {
						t.Errorf("prompt %s gave away %q from outside the root: %.300s", name, secret, m.Raw)
					}
				}
			}
			s.ping()
			if after := snapshot(t, outside); after != before {
				t.Errorf("grove changed files outside the root:\nbefore:\n%s\nafter:\n%s", before, after)
			}
		})
	}
}

// withoutGitFileQuote removes from an answer the git directory that proj's
// .git file names, quoted in the error that says how to allow it: that file
// lies inside the root and read_file shows it anyway, so quoting it gives
// nothing away. Everything else about the outside stays a secret.
func withoutGitFileQuote(raw, proj string) string {
	b, err := os.ReadFile(filepath.Join(proj, ".git"))
	if err != nil {
		return raw // a directory or a symlink: nothing to quote
	}
	named, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok || named == "" {
		return raw
	}
	return strings.ReplaceAll(raw, named, "")
}

// localRepoPointingAtSecret makes proj a repository whose master names the
// outside repository's commit, an object proj does not hold.
func localRepoPointingAtSecret(t *testing.T, proj, outside string) {
	t.Helper()
	commitFiles(t, proj, map[string]string{"a.txt": "alpha\n"}, "first")
	setRef(t, filepath.Join(proj, ".git"), "refs/heads/master", readRef(t, filepath.Join(outside, "real", ".git"), "refs/heads/master"))
}

// snapshot lists every file under dir with its size and modification time.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %v\n", strings.TrimPrefix(p, dir), info.Size(), info.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
