// Command pickreplay cherry-picks and reverts sampled commits of a repository onto other points of its own
// history with grove's engine (what git_cherry_pick and git_revert run) and with git's default merge
// (`git cherry-pick --no-commit` and `git revert --no-commit` in the repository's worktree), and compares
// them: where git's result is clean, the trees must be identical; where git conflicts, grove must
// conflict on the same set of paths.
//
// Sampling: n commits with one parent, evenly spaced along `git rev-list --no-merges --topo-order` from
// -rev. Each commit C is cherry-picked onto C~dist (its first-parent ancestor dist commits back: a
// backport), and reverted on the commit dist places newer in the same list (one that usually holds C).
// grove only reads the repository; git checks out, picks and resets in its worktree and writes loose objects,
// so point it at a scratch clone (bench/pickreplay.sh makes one).
//
//	go run ./bench/cmd/pickreplay -repo /tmp/clone -n 200
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
	repo := flag.String("repo", "", "worktree of a scratch clone (git checks out and cherry-picks in it)")
	n := flag.Int("n", 200, "commits to sample")
	rev := flag.String("rev", "HEAD", "the history to sample")
	dist := flag.Int("dist", 20, "how far the commit moves: cherry-picked onto C~dist, reverted dist commits later")
	verbose := flag.Bool("v", false, "print every operation")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("pickreplay: ")
	if err := run(*repo, *rev, *n, *dist, *verbose); err != nil {
		log.Fatal(err)
	}
}

// tally counts one kind of operation (cherry-pick or revert).
type tally struct {
	ops, gitClean, sameTree, gitConflicted, samePaths int
	groveTime, gitTime                                []time.Duration
	bad                                               []string
}

func (t *tally) agree() int { return t.sameTree + t.samePaths }

func run(repo, rev string, n, dist int, verbose bool) error {
	if n <= 0 || dist <= 0 {
		return fmt.Errorf("-n and -dist must be positive")
	}
	gitDir, _, err := benchutil.Git(repo, "rev-parse", "--absolute-git-dir")
	if err != nil {
		return err
	}
	// The worktree's HEAD moves as git picks: resolve rev before.
	tip, code, err := benchutil.Git(repo, "rev-parse", "--verify", rev+"^{commit}")
	if err != nil || code != 0 {
		return fmt.Errorf("resolving %s: exit %d %v", rev, code, err)
	}
	tip = strings.TrimSpace(tip)
	list, _, err := benchutil.Git(repo, "rev-list", "--no-merges", "--topo-order", tip)
	if err != nil {
		return err
	}
	all := strings.Fields(list)
	if len(all) < 2*dist+1 {
		return fmt.Errorf("%d commits without merges: too few for -dist %d", len(all), dist)
	}
	rp, err := gittools.NewReplayer(strings.TrimSpace(gitDir))
	if err != nil {
		return err
	}
	var picks, reverts tally
	skipped := 0
	// Candidates are dist places from either end, so that both a newer commit and C~dist may exist.
	span := len(all) - 2*dist
	for i := range min(n, span) {
		k := dist + i*span/min(n, span)
		c := all[k]
		out, code, err := benchutil.Git(repo, "rev-parse", "-q", "--verify", c+"~"+fmt.Sprint(dist))
		if err != nil {
			return err
		}
		if code != 0 {
			skipped++ // C~dist runs past the root
			continue
		}
		if err := replay(repo, rp, strings.TrimSpace(out), c, false, &picks, verbose); err != nil {
			return fmt.Errorf("cherry-pick %s: %w", c[:12], err)
		}
		if err := replay(repo, rp, all[k-dist], c, true, &reverts, verbose); err != nil {
			return fmt.Errorf("revert %s: %w", c[:12], err)
		}
	}
	fmt.Printf("repository %s at %s; %d commits sampled from %d without merges (%d skipped: C~%d past the root)\n",
		filepath.Base(strings.TrimSuffix(repo, "/")), tip, picks.ops, len(all), skipped, dist)
	for _, r := range []struct {
		name string
		t    *tally
	}{{"cherry-pick", &picks}, {"revert", &reverts}} {
		t := r.t
		fmt.Printf("%s: %d/%d agree (%s): git clean %d, identical tree %d; git conflicted %d, same conflicted paths %d; median grove %v (in process, no worktree), git %v (process, with its worktree)\n",
			r.name, t.agree(), t.ops, benchutil.Pct(t.agree(), t.ops), t.gitClean, t.sameTree, t.gitConflicted, t.samePaths, benchutil.Median(t.groveTime), benchutil.Median(t.gitTime))
		for _, b := range t.bad {
			fmt.Println("  " + b)
		}
	}
	fmt.Printf("both: %d/%d agree (%s)\n", picks.agree()+reverts.agree(), picks.ops+reverts.ops, benchutil.Pct(picks.agree()+reverts.agree(), picks.ops+reverts.ops))
	return nil
}

// gitPick runs `git cherry-pick --no-commit c` (or `git revert --no-commit c`) on a detached checkout of
// onto and returns the result: the tree when it is clean, else the conflicted paths (sorted); then it puts
// the worktree back.
func gitPick(repo, onto, c string, revert bool) (tree string, conflicts []string, err error) {
	verb := "cherry-pick"
	if revert {
		verb = "revert"
	}
	defer func() {
		for _, args := range [][]string{{verb, "--quit"}, {"reset", "-q", "--hard"}, {"clean", "-fdqx"}} {
			if _, code, e := benchutil.Git(repo, args...); (e != nil || code != 0) && err == nil {
				err = fmt.Errorf("cleaning up after git %s: git %s failed", verb, strings.Join(args, " "))
			}
		}
	}()
	if out, code, err := benchutil.Git(repo, "checkout", "-q", "-f", "--detach", onto); err != nil || code != 0 {
		return "", nil, fmt.Errorf("git checkout %s: exit %d %v %s", onto, code, err, out)
	}
	out, code, err := benchutil.Git(repo, verb, "--no-commit", c)
	if err != nil {
		return "", nil, err
	}
	if code == 0 {
		t, _, err := benchutil.Git(repo, "write-tree")
		return strings.TrimSpace(t), nil, err
	}
	u, _, err := benchutil.Git(repo, "ls-files", "-u")
	if err != nil {
		return "", nil, err
	}
	for _, l := range strings.Split(u, "\n") {
		if _, p, ok := strings.Cut(l, "\t"); ok {
			conflicts = append(conflicts, p)
		}
	}
	if len(conflicts) == 0 {
		return "", nil, fmt.Errorf("git %s %s onto %s: exit %d without conflicts: %s", verb, c[:12], onto[:12], code, out)
	}
	slices.Sort(conflicts)
	return "", slices.Compact(conflicts), nil
}

// replay applies c onto onto (or reverts it there) with git and grove and compares.
func replay(repo string, rp *gittools.Replayer, onto, c string, revert bool, t *tally, verbose bool) error {
	start := time.Now()
	gitTree, gitPaths, err := gitPick(repo, onto, c, revert)
	if err != nil {
		return err
	}
	t.gitTime = append(t.gitTime, time.Since(start))
	start = time.Now()
	g, err := rp.Pick(context.Background(), onto, c, revert)
	if err != nil {
		return err
	}
	t.groveTime = append(t.groveTime, time.Since(start))
	t.ops++
	verdict := "ok"
	if gitPaths == nil {
		t.gitClean++
		if g.Tree == gitTree && len(g.Conflicts) == 0 {
			t.sameTree++
		} else {
			verdict = fmt.Sprintf("CLEAN-MISMATCH grove conflicts %v", g.Conflicts)
		}
	} else {
		t.gitConflicted++
		if slices.Equal(g.Conflicts, gitPaths) {
			t.samePaths++
		} else {
			verdict = fmt.Sprintf("PATHS git %v grove %v %v", gitPaths, g.Conflicts, g.Kinds)
		}
	}
	if verdict != "ok" {
		t.bad = append(t.bad, fmt.Sprintf("%s onto %s: %s", c[:12], onto[:12], verdict))
	}
	if verbose {
		fmt.Fprintf(os.Stderr, "%s onto %s revert=%v: %s\n", c[:12], onto[:12], revert, verdict)
	}
	return nil
}
