package gittools

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/diff"
	"github.com/grove-mcp/grove/gittools/internal/history"
	"github.com/grove-mcp/grove/gittools/internal/patchtext"
	"github.com/grove-mcp/grove/gittools/internal/status"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// layout is a repository set up the way users set them up, checked against git run in Dir.
type layout struct {
	Scope    *roots.Scope
	RepoPath string // what the tools get as repo_path ("" = the only root)
	Dir      string // where git runs
	Blame    string // a committed file to blame
	NoDiff   string // why git_diff's patch is not compared yet ("" = it is)
}

// layoutBase makes a repository with three commits over docs/ and src/, where a.txt has history to blame.
func layoutBase(t *testing.T) *fixture {
	f := newFixture(t)
	f.write("a.txt", "one\ntwo\nthree\n", "docs/guide.md", "# guide\n", "src/main.go", "package main\n", "src/lib/x.go", "package lib\n")
	f.commit("first")
	f.write("a.txt", "one\n2\nthree\nfour\n", "docs/more.md", "more\n")
	f.commit("second")
	f.write("src/main.go", "package main\n\nfunc main() {}\n", "a.txt", "one\n2\nthree\nfour\nfive\n")
	f.commit("third")
	return f
}

func TestLayoutsMatchGit(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, f *fixture) layout
	}{
		{"plain", func(t *testing.T, f *fixture) layout {
			f.write("a.txt", "edited\n", "new.txt", "n\n")
			return f.only()
		}},
		{"sparse checkout cone", func(t *testing.T, f *fixture) layout {
			f.git("sparse-checkout", "set", "docs")
			f.write("docs/guide.md", "# edited\n")
			return f.only()
		}},
		{"sparse checkout, non-cone patterns", func(t *testing.T, f *fixture) layout {
			f.git("sparse-checkout", "set", "--no-cone", "/*.txt", "*.go")
			f.write("src/main.go", "package main // edited\n", "docs/stray.md", "u\n")
			return f.only()
		}},
		{"sparse index", func(t *testing.T, f *fixture) layout {
			f.git("sparse-checkout", "init", "--cone", "--sparse-index")
			f.git("sparse-checkout", "set", "docs")
			f.write("docs/guide.md", "# edited\n", "docs/new.md", "n\n")
			f.git("add", "docs/new.md")
			f.indexHas("sdir")
			return f.only()
		}},
		{"split index", func(t *testing.T, f *fixture) layout {
			f.git("config", "core.splitIndex", "true")
			f.git("update-index", "--split-index")
			f.write("a.txt", "edited\n", "docs/new.md", "n\n")
			f.git("add", "docs/new.md")
			f.git("rm", "-q", "--cached", "src/lib/x.go")
			f.indexHas("link")
			return f.only()
		}},
		{"split index, long runs in its bitmaps", func(t *testing.T, f *fixture) layout {
			var files []string
			for i := range 300 {
				files = append(files, fmt.Sprintf("many/f%03d.txt", i), fmt.Sprintf("%d\n", i))
			}
			f.write(files...)
			f.commit("many files")
			f.git("config", "core.splitIndex", "true")
			f.git("config", "splitIndex.maxPercentChange", "100") // keep the shared index: the bitmaps grow runs
			f.git("update-index", "--split-index")
			f.git("rm", "-q", "--cached", "-r", "many")
			f.git("add", "many/f007.txt", "many/f250.txt")
			f.write("many/f260.txt", "changed\n")
			f.git("add", "many/f260.txt")
			f.indexHas("link")
			return f.only()
		}},
		{"split index, version 4, replaced entries", func(t *testing.T, f *fixture) layout {
			f.git("update-index", "--index-version", "4")
			f.git("config", "core.splitIndex", "true")
			f.git("update-index", "--split-index")
			f.write("src/main.go", "package main // staged\n", "a.txt", "unstaged\n")
			f.git("add", "src/main.go")
			f.indexHas("link")
			return f.only()
		}},
		{"index v4", func(t *testing.T, f *fixture) layout {
			f.git("update-index", "--index-version", "4")
			f.write("src/main.go", "package main // edited\n")
			return f.only()
		}},
		{"index v3 with every optional extension", func(t *testing.T, f *fixture) layout {
			f.git("config", "core.untrackedCache", "true")
			f.git("config", "index.recordEndOfIndexEntries", "true")
			f.git("config", "index.recordOffsetTable", "true")
			f.git("config", "index.threads", "2")
			f.write("intent.txt", "i\n", "u.txt", "u\n", "a.txt", "edited\n")
			f.git("add", "-N", "intent.txt") // an intent-to-add entry makes the index version 3
			f.git("status", "-uall")         // writes UNTR
			f.indexHas("UNTR", "EOIE", "IEOT")
			return f.only()
		}},
		{"fsmonitor extension", func(t *testing.T, f *fixture) layout {
			hook := filepath.Join(f.home, "fsmonitor")
			os.WriteFile(hook, []byte("#!/bin/sh\nprintf 'token\\0/\\0'\n"), 0o755)
			f.git("config", "core.fsmonitor", hook)
			f.git("config", "core.fsmonitorHookVersion", "2")
			f.write("a.txt", "edited\n")
			f.git("status")
			f.indexHas("FSMN")
			return f.only()
		}},
		{"assume unchanged and file mode off", func(t *testing.T, f *fixture) layout {
			f.git("update-index", "--assume-unchanged", "docs/guide.md")
			f.write("docs/guide.md", "# assumed\n")
			f.git("config", "core.fileMode", "false")
			os.Chmod(filepath.Join(f.dir, "src/main.go"), 0o755)
			return f.only()
		}},
		{"symlinks checked out as files", func(t *testing.T, f *fixture) layout {
			os.Symlink("a.txt", filepath.Join(f.dir, "link"))
			os.Symlink("docs", filepath.Join(f.dir, "dirlink"))
			f.commit("symlinks")
			f.git("config", "core.symlinks", "false")
			for _, l := range []struct{ name, text string }{{"link", "a.txt"}, {"dirlink", "elsewhere"}} {
				os.Remove(filepath.Join(f.dir, l.name))
				os.WriteFile(filepath.Join(f.dir, l.name), []byte(l.text), 0o644)
			}
			l := f.only()
			l.NoDiff = "the patch writer takes a plain file's mode, not the symlink's (core.symlinks=false)"
			return l
		}},
		{"shallow clone", func(t *testing.T, f *fixture) layout {
			clone := filepath.Join(filepath.Dir(f.dir), "shallow")
			f.git("clone", "-q", "--depth", "2", "file://"+f.dir, clone)
			os.WriteFile(filepath.Join(clone, "a.txt"), []byte("shallow edit\n"), 0o644)
			return layout{Scope: scopeOf(t, clone), Dir: clone, Blame: "docs/more.md"}
		}},
		{"git file with a relative path", func(t *testing.T, f *fixture) layout {
			store := filepath.Join(f.dir, ".store")
			os.Rename(filepath.Join(f.dir, ".git"), store)
			os.WriteFile(filepath.Join(f.dir, ".git"), []byte("gitdir: .store\n"), 0o644)
			f.write(".store/info/exclude", ".store\n", "a.txt", "edited\n")
			return f.only()
		}},
		{"linked worktree as the root", func(t *testing.T, f *fixture) layout {
			wt := filepath.Join(filepath.Dir(f.dir), "wt")
			f.git("worktree", "add", "-q", "-b", "topic", wt)
			os.WriteFile(filepath.Join(wt, "a.txt"), []byte("in the worktree\n"), 0o644)
			return layout{Scope: scopeOf(t, wt, f.dir), RepoPath: wt, Dir: wt, Blame: "a.txt"}
		}},
		{"linked worktree and main repository as roots", func(t *testing.T, f *fixture) layout {
			wt := filepath.Join(filepath.Dir(f.dir), "wt")
			f.git("worktree", "add", "-q", "--detach", wt, "HEAD~1")
			os.WriteFile(filepath.Join(wt, "docs", "guide.md"), []byte("detached\n"), 0o644)
			return layout{Scope: scopeOf(t, f.dir, wt), RepoPath: roots.URI(wt), Dir: wt, Blame: "a.txt"}
		}},
		{"linked worktree with worktree config", func(t *testing.T, f *fixture) layout {
			wt := filepath.Join(filepath.Dir(f.dir), "wt")
			f.git("worktree", "add", "-q", "-b", "topic", wt)
			f.gitIn(wt, "sparse-checkout", "set", "src")
			os.WriteFile(filepath.Join(wt, "src", "main.go"), []byte("sparse in a worktree\n"), 0o644)
			return layout{Scope: scopeOf(t, wt, f.dir), RepoPath: wt, Dir: wt, Blame: "a.txt"}
		}},
		{"submodules with local changes", func(t *testing.T, f *fixture) layout {
			sub := newFixture(t)
			sub.write("s.txt", "s\n")
			sub.commit("sub first")
			for _, m := range []string{"modified", "untracked", "committed", "all", "removed", "clean"} {
				f.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.dir, m)
			}
			f.commit("add submodules")
			f.write("modified/s.txt", "dirty\n", "untracked/u.txt", "u\n", "all/s.txt", "dirty\n", "all/u.txt", "u\n")
			for _, m := range []string{"committed", "all"} {
				f.gitIn(filepath.Join(f.dir, m), "commit", "-q", "--allow-empty", "-m", "new in sub")
			}
			os.RemoveAll(filepath.Join(f.dir, "removed"))
			l := f.only()
			return l
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := layoutBase(t)
			checkLayout(t, f, tt.setup(t, f))
		})
	}
}

// indexHas fails the test unless .git/index holds each of the extensions sigs.
func (f *fixture) indexHas(sigs ...string) {
	f.t.Helper()
	data, err := os.ReadFile(filepath.Join(f.dir, ".git", "index"))
	if err != nil {
		f.t.Fatal(err)
	}
	for _, s := range sigs {
		if !strings.Contains(string(data), s) {
			f.t.Fatalf("the index has no %s extension", s)
		}
	}
}

// only is the layout of f's worktree as the only root.
func (f *fixture) only() layout {
	return layout{Scope: scopeOf(f.t, f.dir), Dir: f.dir, Blame: "a.txt"}
}

// checkLayout compares git_status, git_log, git_diff and git_blame with git's output in l.Dir.
func checkLayout(t *testing.T, f *fixture, l layout) {
	t.Helper()
	r := New(Options{Scope: scope.Static(l.Scope)})
	t.Cleanup(func() { r.Close() })
	ctx := testCtx(t)
	t.Run("status", func(t *testing.T) {
		_, out, err := r.status(ctx, nil, l.Scope, status.StatusArgs{RepoPath: l.RepoPath})
		if err != nil {
			t.Fatal(err)
		}
		got := []string{}
		for _, e := range out.Entries {
			got = append(got, e.Index+e.Worktree+" "+patchtext.QuotePath(e.Path))
		}
		sort.Strings(got)
		if diff := cmp.Diff(porcelain(f.gitIn(l.Dir, "-c", "status.renames=false", "status", "--porcelain")), got); diff != "" {
			t.Errorf("status mismatch (-git +grove):\n%s", diff)
		}
	})
	t.Run("log", func(t *testing.T) {
		_, out, err := r.logTool(ctx, nil, l.Scope, history.LogArgs{RepoPath: l.RepoPath})
		if err != nil {
			t.Fatal(err)
		}
		got := []string{}
		for _, c := range out.Commits {
			got = append(got, c.Hash)
		}
		want := strings.Fields(f.gitIn(l.Dir, "log", "-20", "--format=%H"))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("log mismatch (-git +grove):\n%s", diff)
		}
	})
	t.Run("diff", func(t *testing.T) {
		if l.NoDiff != "" {
			t.Skip(l.NoDiff)
		}
		for _, staged := range []bool{false, true} {
			res, _, err := r.diffTool(ctx, nil, l.Scope, diff.DiffArgs{RepoPath: l.RepoPath, Staged: staged})
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"diff", "--no-renames", "--no-color", "--no-ext-diff"}
			if staged {
				args = append(args, "--cached")
			}
			got := strings.TrimSuffix(resultText(res), "no changes\n")
			if diff := cmp.Diff(f.gitIn(l.Dir, args...), got); diff != "" {
				t.Errorf("diff (staged %v) mismatch (-git +grove):\n%s", staged, diff)
			}
		}
	})
	t.Run("blame", func(t *testing.T) {
		path := l.Blame
		if l.RepoPath != "" {
			path = filepath.Join(l.Dir, l.Blame)
		}
		want := gitBlameCommits(t, l.Dir, f.home, "HEAD", l.Blame)
		got := groveBlameCommits(t, r, l.Scope, "HEAD", path)
		for i, g := range got { // an unrenamed line carries the path asked for; git names it from the top
			got[i] = strings.Replace(g, " "+path, " "+filepath.ToSlash(l.Blame), 1)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("blame mismatch (-git +grove):\n%s", diff)
		}
	})
}

// porcelain splits git's porcelain output into sorted lines.
func porcelain(out string) []string {
	lines := []string{}
	for _, l := range strings.Split(out, "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	sort.Strings(lines)
	return lines
}
