package gittools

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/history"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/roots"
)

// randomHistory writes a fast-import stream of a random history: commits on main that add, modify, delete
// and rename files (names with spaces and non-ASCII letters among them), turn a file into a directory and
// back, and merge topic branches forked from older commits, some merges TREESAME to a parent. Dates mostly
// rise, with ties and topic commits dated before their fork's successors.
func randomHistory(seed uint64, commits int) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	names := []string{"a", "b", "c d", "ünï", "日本", "x.go", "read me.txt", "é"}
	dirs := []string{"", "src", "src/core", "docs", "with space", "ünï/çø", "a"}
	files := map[string]int{} // path -> content counter, on main
	var b strings.Builder
	mark, now := 0, int64(1_700_000_000)
	var mainMarks []int
	var mainFiles []map[string]int
	newPath := func() string {
		p := path.Join(dirs[rng.IntN(len(dirs))], names[rng.IntN(len(names))])
		if rng.IntN(3) == 0 {
			p += strconv.Itoa(rng.IntN(5))
		}
		return p
	}
	blocked := func(p string, fs map[string]int) bool { // a file where p needs a directory, or the reverse
		for q := range fs {
			if strings.HasPrefix(p, q+"/") || strings.HasPrefix(q, p+"/") {
				return true
			}
		}
		return false
	}
	keys := func(fs map[string]int) []string {
		ks := make([]string, 0, len(fs))
		for k := range fs {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return ks
	}
	commit := func(ref string, from, merge int, ops []string) int {
		mark++
		now += int64(rng.IntN(3) * 60) // ties now and then
		fmt.Fprintf(&b, "commit %s\nmark :%d\ncommitter C <c@example.com> %d +0000\ndata 2\nc\n", ref, mark, now)
		if from > 0 {
			fmt.Fprintf(&b, "from :%d\n", from)
		}
		if merge > 0 {
			fmt.Fprintf(&b, "merge :%d\n", merge)
		}
		for _, op := range ops {
			b.WriteString(op)
		}
		b.WriteString("\n")
		return mark
	}
	modify := func(fs map[string]int, p string) string {
		fs[p]++
		data := fmt.Sprintf("%s %d\n", p, fs[p])
		return fmt.Sprintf("M 100644 inline %s\ndata %d\n%s\n", strconv.Quote(p), len(data), data)
	}
	for i := range commits {
		var ops []string
		switch r := rng.IntN(20); {
		case i == 0 || r < 9 || len(files) < 3:
			for range 1 + rng.IntN(3) {
				p := newPath()
				if !blocked(p, files) {
					ops = append(ops, modify(files, p))
				}
			}
		case r < 11:
			p := keys(files)[rng.IntN(len(files))]
			delete(files, p)
			ops = append(ops, fmt.Sprintf("D %s\n", strconv.Quote(p)))
		case r < 13:
			from := keys(files)[rng.IntN(len(files))]
			to := newPath()
			if to != from && files[to] == 0 && !blocked(to, files) && !strings.HasPrefix(to, from+"/") {
				files[to] = files[from]
				delete(files, from)
				ops = append(ops, fmt.Sprintf("R %s %s\n", strconv.Quote(from), strconv.Quote(to)))
			}
		case r < 14: // a file becomes a directory (or a directory's files go and a file takes its name)
			p := keys(files)[rng.IntN(len(files))]
			delete(files, p)
			ops = append(ops, fmt.Sprintf("D %s\n", strconv.Quote(p)))
			ops = append(ops, modify(files, p+"/inner"))
		case r < 17 && len(mainMarks) > 4: // a topic branch merged back
			base := rng.IntN(len(mainMarks) - 1)
			topic := maps(mainFiles[base])
			ref := fmt.Sprintf("refs/heads/topic%d", i)
			tip := mainMarks[base]
			saved := now
			now -= int64(rng.IntN(5) * 60) // topic commits may be older than main's latest
			var changed []string
			for k := range 1 + rng.IntN(3) {
				p := newPath()
				if blocked(p, topic) || blocked(p, files) {
					continue
				}
				tip = commit(ref, tip, 0, []string{modify(topic, p)})
				_ = k
				changed = append(changed, p)
			}
			now = max(now, saved)
			var mops []string
			if rng.IntN(3) > 0 { // else the merge keeps main's tree: TREESAME to its first parent
				for _, p := range changed {
					files[p] = topic[p]
					data := fmt.Sprintf("%s %d\n", p, files[p])
					mops = append(mops, fmt.Sprintf("M 100644 inline %s\ndata %d\n%s\n", strconv.Quote(p), len(data), data))
				}
			}
			m := commit("refs/heads/main", 0, tip, mops)
			mainMarks, mainFiles = append(mainMarks, m), append(mainFiles, maps(files))
			continue
		default:
			p := keys(files)[rng.IntN(len(files))]
			ops = append(ops, modify(files, p))
		}
		m := commit("refs/heads/main", 0, 0, ops)
		mainMarks, mainFiles = append(mainMarks, m), append(mainFiles, maps(files))
	}
	return b.String()
}

func maps(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// queryPaths are the paths the differential test asks about: every path in history, every directory above
// one, and some that never existed.
func queryPaths(f *fixture) []string {
	seen := map[string]bool{"missing": true, "src/missing/deeper": true}
	out := f.git("-c", "core.quotepath=off", "log", "--format=", "--name-only", "--no-renames", "--all")
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		for p := sc.Text(); p != "" && p != "."; p = path.Dir(p) {
			seen[p] = true
		}
	}
	return slices.Sorted(func(yield func(string) bool) {
		for p := range seen {
			if !yield(p) {
				return
			}
		}
	})
}

// TestLogDifferential compares grove's path-limited log with `git log --format=%H -n N -- PATH` on random
// histories, read four ways: by trees alone, on a commit-graph, with its Bloom filters, and with the
// changed-paths index built. GROVE_LOG_DIFF_SEEDS=n runs n seeds instead of 2 (a few seconds each under -race).
func TestLogDifferential(t *testing.T) {
	seeds := 2
	if v, err := strconv.Atoi(os.Getenv("GROVE_LOG_DIFF_SEEDS")); err == nil && v > 0 {
		seeds = v
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			f := newFixture(t)
			cmd := gitCmd(f, "fast-import", "--quiet")
			cmd.Stdin = strings.NewReader(randomHistory(seed, 80))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("fast-import: %v\n%s", err, out)
			}
			f.git("checkout", "-q", "-f", "main")
			paths := queryPaths(f)
			want := map[string][]string{}
			for _, p := range paths {
				want[p] = strings.Fields(f.git("log", "--format=%H", "-n", "200", "--", p))
			}
			r, sc := f.repos()
			defer r.Close()
			check := func(mode string) {
				t.Helper()
				rp, unlock, err := r.open(testCtx(t), sc, f.Dir)
				if err != nil {
					t.Fatal(err)
				}
				defer unlock()
				for _, p := range paths {
					for _, max := range []int{200, 2} {
						q, err := history.NewQuery(rp, sc, history.LogArgs{Path: p, MaxCount: max})
						if err != nil {
							t.Fatal(err)
						}
						q.Cache = &r.history
						out, err := history.Log(rp, testCtx(t), q)
						if err != nil {
							t.Fatalf("%s: log -- %q: %v", mode, p, err)
						}
						got := []string{}
						for _, c := range out.Commits {
							got = append(got, c.Hash)
						}
						w := want[p][:min(max, len(want[p]))]
						if diff := cmp.Diff(w, got); diff != "" {
							t.Errorf("%s: log -n %d -- %q mismatch (-git +grove):\n%s", mode, max, p, diff)
						}
					}
				}
			}
			r.history.Background = nil // no background builds: each mode reads exactly what it names
			check("trees")
			f.git("commit-graph", "write", "--reachable")
			check("graph")
			f.git("commit-graph", "write", "--reachable", "--changed-paths")
			check("bloom")
			rp := openRepo(t, r, sc, f)
			r.history.Build(rp, plumbing.NewHash(strings.TrimSpace(f.git("rev-parse", "HEAD"))))
			if n := r.history.Index(rp).Len(); n == 0 {
				t.Fatal("the index holds no commits after a build")
			}
			check("index")
		})
	}
}

func openRepo(t *testing.T, r *Repos, sc *roots.Scope, f *fixture) *repo.Repo {
	t.Helper()
	rp, unlock, err := r.open(testCtx(t), sc, f.Dir)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	return rp
}
