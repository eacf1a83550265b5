package gittools

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPickReplayAgreesWithGit generates a history of small edits, renames, deletions and additions, then
// cherry-picks every commit onto an older point (C~3) and reverts it on the tip, with the Replayer (grove's
// engine, as git_cherry_pick and git_revert run it) and with `git cherry-pick --no-commit` and `git revert
// --no-commit`: a clean result must be the same tree, a conflicted one must conflict on the same paths.
// bench/pickreplay.sh does the same on a real repository.
func TestPickReplayAgreesWithGit(t *testing.T) {
	dir := realTemp(t)
	home := isolateGit(t)
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = gitEnv(home)
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	must := func(args ...string) string {
		t.Helper()
		out, err := git(args...)
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return out
	}
	must("init", "-q", "-b", "main")
	rng := rand.New(rand.NewPCG(22, 7))
	files := map[string][]string{}
	write := func(p string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(strings.Join(files[p], "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 6 {
		p := fmt.Sprintf("src/f%d.txt", i)
		for l := range 30 {
			files[p] = append(files[p], fmt.Sprintf("file %d line %d", i, l))
		}
		write(p)
	}
	must("add", "-A")
	must("commit", "-q", "-m", "base")
	names := func() []string {
		ns := make([]string, 0, len(files))
		for p := range files {
			ns = append(ns, p)
		}
		slices.Sort(ns)
		return ns
	}
	for c := range 40 {
		ns := names()
		p := ns[rng.IntN(len(ns))]
		switch op := rng.IntN(10); {
		case op < 6: // edit a few lines
			for range 1 + rng.IntN(3) {
				l := rng.IntN(len(files[p]))
				files[p][l] = fmt.Sprintf("commit %d edits line %d", c, l)
			}
			write(p)
		case op == 6: // insert lines
			l := rng.IntN(len(files[p]))
			files[p] = slices.Insert(files[p], l, fmt.Sprintf("commit %d inserts", c), "and more")
			write(p)
		case op == 7 && len(files) > 3: // rename, maybe into another directory
			to := fmt.Sprintf("%s/r%d.txt", []string{"src", "lib"}[rng.IntN(2)], c)
			files[to] = files[p]
			write(to)
			must("rm", "-q", p)
			delete(files, p)
		case op == 8 && len(files) > 4: // delete
			must("rm", "-q", p)
			delete(files, p)
		default: // add
			to := fmt.Sprintf("src/n%d.txt", c)
			for l := range 10 {
				files[to] = append(files[to], fmt.Sprintf("new file %d line %d", c, l))
			}
			write(to)
		}
		must("add", "-A")
		must("commit", "-q", "--allow-empty", "-m", fmt.Sprint("commit ", c))
	}
	gitDir := must("rev-parse", "--absolute-git-dir")
	rp, err := NewReplayer(gitDir)
	if err != nil {
		t.Fatal(err)
	}
	tip := must("rev-parse", "HEAD")
	commits := strings.Fields(must("rev-list", "--no-merges", "HEAD~1"))
	ops, conflicted := 0, 0
	for _, c := range commits[:len(commits)-1] { // not the root
		for _, revert := range []bool{false, true} {
			onto := tip
			if !revert {
				o, err := git("rev-parse", "-q", "--verify", c+"~3")
				if err != nil {
					continue
				}
				onto = o
			}
			verb := map[bool]string{false: "cherry-pick", true: "revert"}[revert]
			must("checkout", "-q", "-f", "--detach", onto)
			_, err := git(verb, "--no-commit", c)
			var wantTree string
			var wantPaths []string
			if err == nil {
				wantTree = must("write-tree")
			} else {
				for _, l := range strings.Split(must("ls-files", "-u"), "\n") {
					if _, p, ok := strings.Cut(l, "\t"); ok {
						wantPaths = append(wantPaths, p)
					}
				}
				slices.Sort(wantPaths)
				wantPaths = slices.Compact(wantPaths)
				if len(wantPaths) == 0 {
					t.Fatalf("git %s %s failed without conflicts: %v", verb, c[:7], err)
				}
				conflicted++
			}
			must(verb, "--quit")
			must("reset", "-q", "--hard")
			must("clean", "-fdqx")
			got, err := rp.Pick(context.Background(), onto, c, revert)
			if err != nil {
				t.Fatalf("%s %s onto %s: %v", verb, c[:7], onto[:7], err)
			}
			ops++
			switch {
			case wantPaths == nil && (got.Tree != wantTree || len(got.Conflicts) > 0):
				t.Errorf("%s %s onto %s: git's clean tree %s, grove's %s with conflicts %v", verb, c[:7], onto[:7], wantTree, got.Tree, got.Conflicts)
			case wantPaths != nil && !slices.Equal(got.Conflicts, wantPaths):
				t.Errorf("%s %s onto %s: git conflicts on %v, grove on %v", verb, c[:7], onto[:7], wantPaths, got.Conflicts)
			}
		}
	}
	t.Logf("%d cherry-picks and reverts compared, %d conflicted in git", ops, conflicted)
	if ops < 60 || conflicted == 0 {
		t.Errorf("%d operations, %d conflicted: the generated history does not exercise both outcomes", ops, conflicted)
	}
}
