package gittools

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
)

// blameHistory writes a fast-import stream of a random history for blame: files of distinct lines in
// nested directories, edited line by line (inserts, deletions, replacements, a short block moved past a
// longer one), renamed within and across directories (some with an edit in the same commit), deleted and
// added again, made executable, and topic branches forked from older commits and merged back, the merge
// taking each side's versions and sometimes adding a line of its own. Lines are unique, so every diff has
// one shortest form and any disagreement with git is the walk's, not the line diff's.
func blameHistory(seed uint64, commits int) string {
	rng := rand.New(rand.NewPCG(seed, 0xb1a3e))
	var b strings.Builder
	next := 0
	line := func() string { next++; return fmt.Sprintf("line %d of the history\n", next) }
	lines := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = line()
		}
		return out
	}
	type tree map[string][]string
	exec := map[string]bool{}
	dirs := []string{"", "a/", "a/b/", "a/b/c/", "d/"}
	newPath := func() string { return fmt.Sprintf("%sf%d.txt", dirs[rng.IntN(len(dirs))], rng.IntN(1000)) }
	mark, now := 0, int64(1_600_000_000)
	write := func(ref string, from, merge int, t tree) int {
		mark++
		now += int64(60 + rng.IntN(60))
		fmt.Fprintf(&b, "commit %s\nmark :%d\ncommitter C <c@example.com> %d +0000\ndata 2\nc\n", ref, mark, now)
		if from > 0 {
			fmt.Fprintf(&b, "from :%d\n", from)
		}
		if merge > 0 {
			fmt.Fprintf(&b, "merge :%d\n", merge)
		}
		b.WriteString("deleteall\n")
		for _, p := range slices.Sorted(mapKeys(t)) {
			data := strings.Join(t[p], "")
			mode := "100644"
			if exec[p] {
				mode = "100755"
			}
			fmt.Fprintf(&b, "M %s inline %s\ndata %d\n%s\n", mode, p, len(data), data)
		}
		return mark
	}
	edit := func(ls []string) []string {
		ls = slices.Clone(ls)
		switch i := rng.IntN(len(ls) + 1); rng.IntN(4) {
		case 0:
			ls = slices.Insert(ls, i, lines(1+rng.IntN(3))...)
		case 1:
			if len(ls) > 4 {
				ls = slices.Delete(ls, min(i, len(ls)-1), min(i+1+rng.IntN(2), len(ls)))
			}
		case 2:
			ls[min(i, len(ls)-1)] = line()
		case 3: // a block of one or two lines moved past at least three more
			if n := 1 + rng.IntN(2); len(ls) >= n+4 && i+n+3 < len(ls) {
				block := slices.Clone(ls[i : i+n])
				ls = slices.Delete(ls, i, i+n)
				to := i + 3 + rng.IntN(len(ls)-i-2)
				ls = slices.Insert(ls, to, block...)
			}
		}
		return ls
	}
	main := tree{}
	for range 4 {
		main[newPath()] = lines(8 + rng.IntN(20))
	}
	tips := []int{write("refs/heads/main", 0, 0, main)}
	states := []tree{maps2(main)}
	for len(tips) < commits {
		paths := slices.Sorted(mapKeys(main))
		p := paths[rng.IntN(len(paths))]
		switch r := rng.IntN(20); {
		case r < 9:
			main[p] = edit(main[p])
		case r < 11:
			main[newPath()] = lines(6 + rng.IntN(20))
		case r < 13 && len(main) > 2: // rename, sometimes with an edit
			q := newPath()
			if _, ok := main[q]; !ok {
				main[q] = main[p]
				if rng.IntN(2) == 0 {
					main[q] = edit(main[q])
				}
				delete(main, p)
			}
		case r < 14 && len(main) > 3:
			delete(main, p)
		case r < 15:
			exec[p] = !exec[p]
		case r < 20 && len(tips) > 3: // a topic forked from an older commit, edited, merged back
			base := len(tips) - 1 - rng.IntN(min(4, len(tips)))
			topic, from := maps2(states[base]), tips[base]
			for range 1 + rng.IntN(3) {
				tp := slices.Sorted(mapKeys(topic))
				q := tp[rng.IntN(len(tp))]
				topic[q] = edit(topic[q])
				from = write("refs/heads/topic", from, 0, topic)
			}
			merged := maps2(main)
			for q, ls := range topic {
				if old, ok := states[base][q]; ok && !slices.Equal(old, ls) {
					if cur, ok := main[q]; ok && slices.Equal(cur, old) {
						merged[q] = ls
					}
				}
			}
			if rng.IntN(3) == 0 {
				mp := slices.Sorted(mapKeys(merged))
				q := mp[rng.IntN(len(mp))]
				merged[q] = append(slices.Clone(merged[q]), line())
			}
			main = merged
			tips = append(tips, write("refs/heads/main", tips[len(tips)-1], from, main))
			states = append(states, maps2(main))
			continue
		}
		tips = append(tips, write("refs/heads/main", tips[len(tips)-1], 0, main))
		states = append(states, maps2(main))
	}
	return b.String()
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func maps2(m map[string][]string) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

// TestBlameDifferential compares git_blame with `git blame --porcelain` (commit, original line and path of
// every line) on every file of random histories, read four ways: by trees alone (with the read-ahead
// goroutines), on a commit-graph, with its Bloom filters, and with the changed-paths index built.
// GROVE_BLAME_DIFF_SEEDS=n runs n seeds instead of 3.
func TestBlameDifferential(t *testing.T) {
	seeds := 3
	if v, err := strconv.Atoi(os.Getenv("GROVE_BLAME_DIFF_SEEDS")); err == nil && v > 0 {
		seeds = v
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			f := newFixture(t)
			cmd := gitCmd(f, "fast-import", "--quiet")
			cmd.Stdin = strings.NewReader(blameHistory(seed, 60))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("fast-import: %v\n%s", err, out)
			}
			f.git("checkout", "-q", "-f", "main")
			paths := strings.Fields(f.git("ls-tree", "-r", "--name-only", "HEAD"))
			want := map[string][]string{}
			for _, p := range paths {
				want[p] = gitBlameCommits(t, f.dir, f.home, "HEAD", p)
			}
			r, sc := f.repos()
			r.history.Background = nil // no background builds: each mode reads exactly what it names
			check := func(mode string) {
				t.Helper()
				for _, p := range paths {
					if diff := cmp.Diff(want[p], groveBlameCommits(t, r, sc, "", p)); diff != "" {
						t.Errorf("%s: blame %s mismatch (-git +grove):\n%s", mode, p, diff)
					}
				}
			}
			check("trees")
			f.git("commit-graph", "write", "--reachable")
			check("graph")
			f.git("commit-graph", "write", "--reachable", "--changed-paths")
			check("bloom")
			rp := openRepo(t, r, sc, f)
			r.history.Build(rp, plumbing.NewHash(strings.TrimSpace(f.git("rev-parse", "HEAD"))))
			check("index")
		})
	}
}
