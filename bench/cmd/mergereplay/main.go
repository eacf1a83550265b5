// Command mergereplay replays a repository's recent merges with grove's merge engine and with
// `git merge-tree --write-tree` (git's default strategy), and compares them: for a merge git completes, the
// merged trees must be identical; for one git stops on, the set of conflicted paths must be the same and each
// conflicted file (as written with conflict markers) byte-identical. It also counts how often the merge git
// completes reproduces the tree the repository recorded (an "evil merge" or a hand resolution does not).
// The repository is only read: grove's objects stay in memory and merge-tree writes none to the object store
// that is not already reachable-equivalent (it writes the merged trees and blobs as loose objects; point it at
// a scratch clone to keep a repository untouched).
//
//	go run ./bench/cmd/mergereplay -repo /tmp/clone -n 300
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/grove-mcp/grove/bench/internal/benchutil"
	"github.com/grove-mcp/grove/gittools"
)

func main() {
	repo := flag.String("repo", "", "repository worktree or git directory (a scratch clone: git merge-tree writes objects)")
	n := flag.Int("n", 100, "replay the last n two-parent merges reachable from -rev")
	rev := flag.String("rev", "HEAD", "where to start looking for merges")
	verbose := flag.Bool("v", false, "print every merge")
	flag.StringVar(&keep, "keep", "", "write git's and grove's version of each differing conflicted file into this directory")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("mergereplay: ")
	if err := run(*repo, *rev, *n, *verbose); err != nil {
		log.Fatal(err)
	}
}

var keep string

type tally struct {
	merges, refused, gitClean, sameTree, recorded, groveClean, gitConflicted, samePaths, files, sameFiles int
	groveTime, gitTime                                                                                    []time.Duration
	bad                                                                                                   []string
}

func run(repo, rev string, n int, verbose bool) error {
	gitDir, _, err := benchutil.Git(repo, "rev-parse", "--absolute-git-dir")
	if err != nil {
		return err
	}
	list, _, err := benchutil.Git(repo, "rev-list", "--merges", "--min-parents=2", "--max-parents=2", "-n", fmt.Sprint(n), rev)
	if err != nil {
		return err
	}
	rp, err := gittools.NewReplayer(strings.TrimSpace(gitDir))
	if err != nil {
		return err
	}
	var t tally
	for _, m := range strings.Fields(list) {
		if err := replay(repo, rp, m, &t, verbose); err != nil {
			return fmt.Errorf("merge %s: %w", m[:12], err)
		}
	}
	report(repo, rev, &t)
	return nil
}

func replay(repo string, rp *gittools.Replayer, m string, t *tally, verbose bool) error {
	out, _, err := benchutil.Git(repo, "rev-parse", m+"^1", m+"^2", m+"^{tree}")
	if err != nil {
		return err
	}
	f := strings.Fields(out)
	p1, p2, recorded := f[0], f[1], f[2]
	start := time.Now()
	mt, code, err := benchutil.Git(repo, "merge-tree", "--write-tree", "--name-only", p1, p2)
	if err != nil {
		return err
	}
	if code != 0 && code != 1 {
		t.refused++ // unrelated histories: git merge-tree refuses them, and so does git_merge by default
		return nil
	}
	t.gitTime = append(t.gitTime, time.Since(start))
	lines := strings.Split(mt, "\n")
	gitTree := lines[0]
	var gitPaths []string
	for _, l := range lines[1:] {
		if l == "" {
			break
		}
		gitPaths = append(gitPaths, l)
	}
	slices.Sort(gitPaths)
	gitPaths = slices.Compact(gitPaths)
	start = time.Now()
	g, err := rp.Merge(context.Background(), p1, p2, p1, p2, false)
	if err != nil {
		return err
	}
	t.groveTime = append(t.groveTime, time.Since(start))
	t.merges++
	verdict := "ok"
	switch {
	case code == 0:
		t.gitClean++
		if gitTree == recorded {
			t.recorded++
		}
		if len(g.Conflicts) == 0 {
			t.groveClean++
		}
		if g.Tree == gitTree && len(g.Conflicts) == 0 {
			t.sameTree++
		} else {
			verdict = fmt.Sprintf("CLEAN-MISMATCH grove conflicts %v", g.Conflicts)
		}
	default:
		t.gitConflicted++
		if slices.Equal(g.Conflicts, gitPaths) {
			t.samePaths++
		} else {
			verdict = fmt.Sprintf("PATHS git %v grove %v %v", gitPaths, g.Conflicts, g.Kinds)
		}
		for _, p := range gitPaths {
			if !slices.Contains(g.Conflicts, p) {
				continue
			}
			t.files++
			want, _, err := benchutil.Git(repo, "rev-parse", "--verify", "-q", gitTree+":"+p)
			if err != nil {
				return err
			}
			got, err := rp.Path(g.Tree, p)
			if err != nil {
				return err
			}
			if strings.TrimSpace(want) == got {
				t.sameFiles++
				continue
			}
			if keep != "" {
				if err := keepPair(repo, rp, keep, m[:12], p, strings.TrimSpace(want), got); err != nil {
					return err
				}
			}
			if verdict == "ok" {
				verdict = "FILE " + p
			} else {
				verdict += " FILE " + p
			}
		}
	}
	if verdict != "ok" {
		t.bad = append(t.bad, fmt.Sprintf("%s %s %s (bases %d): %s", m[:12], p1[:12], p2[:12], g.Bases, verdict))
	}
	if verbose {
		fmt.Fprintf(os.Stderr, "%s %s\n", m[:12], verdict)
	}
	return nil
}

func report(repo, rev string, t *tally) {
	head, _, _ := benchutil.Git(repo, "rev-parse", rev)
	fmt.Printf("repository %s at %s\n", filepath.Base(repo), strings.TrimSpace(head))
	fmt.Printf("merges replayed: %d (git: %d clean, %d conflicted); %d unrelated histories skipped\n", t.merges, t.gitClean, t.gitConflicted, t.refused)
	fmt.Printf("clean merges, identical tree: %d/%d (%s); git's tree equals the recorded one in %d\n", t.sameTree, t.gitClean, benchutil.Pct(t.sameTree, t.gitClean), t.recorded)
	fmt.Printf("conflicted merges, same conflicted paths: %d/%d (%s)\n", t.samePaths, t.gitConflicted, benchutil.Pct(t.samePaths, t.gitConflicted))
	fmt.Printf("conflicted files, byte-identical with markers: %d/%d (%s)\n", t.sameFiles, t.files, benchutil.Pct(t.sameFiles, t.files))
	fmt.Printf("median time per merge: grove %v (in process), git merge-tree %v (process)\n", benchutil.Median(t.groveTime), benchutil.Median(t.gitTime))
	for _, b := range t.bad {
		fmt.Println("  " + b)
	}
}

// keepPair writes git's and grove's version of a conflicted file for comparison.
func keepPair(repo string, rp *gittools.Replayer, dir, m, p, want, got string) error {
	base := filepath.Join(dir, m+"-"+strings.ReplaceAll(p, "/", "_"))
	w, _, err := benchutil.Git(repo, "cat-file", "blob", want)
	if err != nil {
		return err
	}
	g, err := rp.Blob(got)
	if err != nil {
		return err
	}
	if err := os.WriteFile(base+".git", []byte(w), 0o644); err != nil {
		return err
	}
	return os.WriteFile(base+".grove", g, 0o644)
}
