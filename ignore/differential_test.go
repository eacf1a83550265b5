package ignore

import (
	"context"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDifferential builds each scenario and checks that the matcher agrees
// with git check-ignore on every path (which pattern decides, by file and
// line, not just the verdict) and that Walk lists what git ls-files lists.
func TestDifferential(t *testing.T) {
	total := 0
	for _, sc := range loadScenarios(t) {
		t.Run(sc.name, func(t *testing.T) {
			env := isolateGit(t)
			dir := t.TempDir()
			writeTree(t, dir, sc.files)
			initRepo(t, dir, cmpOr(sc.version, 2), sc.tracked...)
			if sc.setup != nil {
				sc.setup(t, dir)
			}
			m, err := New(dir)
			if err != nil {
				t.Fatal(err)
			}
			verdicts := compareCheckIgnore(t, env, m, dir, "")
			total += len(verdicts)
			compareWalk(t, env, m, dir, verdicts)
		})
	}
	t.Logf("compared %d paths with git check-ignore", total)
}

// compareCheckIgnore compares the matcher's verdict on every path of the
// repository at dir (prefix within the matcher's tree) and of the nested
// repositories in it, and returns git's verdicts keyed by matcher path.
func compareCheckIgnore(t *testing.T, env []string, m *Matcher, dir, prefix string) map[string]verdict {
	t.Helper()
	paths, nested := listTree(t, dir)
	names := slices.Sorted(maps.Keys(paths))
	// check-ignore takes pathspecs, and a glob in one may match a tracked
	// file, hiding the path from git; such paths are checked without the
	// index (patterns only), where pathspecs play no part.
	plain := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return strings.ContainsAny(n, "*?[\\") })
	want := checkIgnore(t, env, dir, plain, false)
	wantNoIndex := checkIgnore(t, env, dir, names, true)
	all := map[string]verdict{}
	var diffs []string
	for _, name := range names {
		full := prefix + name
		w, ok := want[name]
		if got := ourVerdict(m, full, paths[name], !ok); ok && got != w {
			diffs = append(diffs, full+": git "+show(w)+", grove "+show(got))
		}
		if got := ourVerdict(m, full, paths[name], true); got != wantNoIndex[name] {
			diffs = append(diffs, full+": git --no-index "+show(wantNoIndex[name])+", grove "+show(got))
		}
		if !ok {
			w = wantNoIndex[name]
			if m.Tracked(full) {
				w = verdict{}
			}
		}
		ignored := w.Source != "" && !strings.HasPrefix(w.Pattern, "!")
		if m.Ignored(full, paths[name]) != ignored {
			diffs = append(diffs, full+": Ignored disagrees with its own verdict")
		}
		all[full] = w
	}
	if len(diffs) > 0 {
		t.Errorf("%d of %d paths differ from git check-ignore:\n%s", len(diffs), len(names), strings.Join(diffs, "\n"))
	}
	for _, n := range nested {
		maps.Copy(all, compareCheckIgnore(t, env, m, filepath.Join(dir, n), prefix+n+"/"))
	}
	return all
}

func show(v verdict) string {
	if v.Source == "" {
		return "no pattern"
	}
	return v.Source + ":" + v.Line + ":" + v.Pattern
}

// compareWalk checks Walk against git ls-files --cached --others
// --exclude-standard: Walk's non-directory entries are exactly git's list
// (nested repositories, which git shows as "sub/", expanded with their own
// ls-files); every directory Walk reports is one git does not ignore, and
// every directory holding a listed file is reported. Entries come in
// fs.WalkDir order.
func compareWalk(t *testing.T, env []string, m *Matcher, dir string, verdicts map[string]verdict) {
	t.Helper()
	var files, dirs, order []string
	err := m.Walk(context.Background(), func(rel string, d fs.DirEntry) error {
		order = append(order, rel)
		if d.IsDir() {
			dirs = append(dirs, rel)
		} else {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := lsFiles(t, env, dir, "")
	slices.Sort(files)
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("Walk files differ from git ls-files (-git +grove):\n%s", diff)
	}
	for _, d := range dirs {
		if v := verdicts[d]; v.Source != "" && !strings.HasPrefix(v.Pattern, "!") {
			t.Errorf("Walk reported %s, which git ignores (%s)", d, show(v))
		}
	}
	for _, f := range want {
		if p := path.Dir(f); p != "." && !slices.Contains(dirs, p) {
			t.Errorf("Walk reported %s but not its directory", f)
		}
	}
	reported := map[string]bool{}
	for _, p := range order {
		reported[p] = true
	}
	for p := range verdicts {
		if parent := path.Dir(p); parent != "." && !reported[parent] {
			continue
		}
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		if reported[p] == m.Ignored(p, fi.IsDir()) {
			t.Errorf("Walk reported %s: %v, but Ignored says %v", p, reported[p], !reported[p])
		}
	}
	if diff := cmp.Diff(walkDirOrder(t, dir, order), order); diff != "" {
		t.Errorf("Walk order differs from fs.WalkDir order (-want +got):\n%s", diff)
	}
}

// lsFiles lists the repository at dir with git, expanding nested
// repositories ("sub/") with their own listing.
func lsFiles(t *testing.T, env []string, dir, prefix string) []string {
	out := runGit(t, env, dir, nil, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	var files []string
	for _, f := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		switch {
		case f == "":
		case strings.HasSuffix(f, "/"):
			files = append(files, lsFiles(t, env, filepath.Join(dir, f), prefix+f)...)
		default:
			files = append(files, prefix+f)
		}
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// walkDirOrder returns the paths of got in the order fs.WalkDir visits them.
func walkDirOrder(t *testing.T, dir string, got []string) []string {
	set := map[string]bool{}
	for _, g := range got {
		set[g] = true
	}
	var order []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		if rel = filepath.ToSlash(rel); set[rel] {
			order = append(order, rel)
		}
		return nil
	})
	return order
}

func cmpOr(v, def uint32) uint32 {
	if v == 0 {
		return def
	}
	return v
}
