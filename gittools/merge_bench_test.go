package gittools

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/mergecmd"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// BenchmarkMerge50k merges two branches that each change 1,000 different files of a 50,000-file repository
// (a merge commit: neither is an ancestor of the other), with git_merge in process and with `git merge` as a
// process, interleaved in one loop on the same repository (reset between runs, untimed). It reports the
// median of each and their ratio (issue 22 asks for grove ≤ 1.0x git), and the median CPU time of each
// (grove's process-wide, so it includes its garbage collector; git's from its rusage).
//
//	go test ./gittools -run '^$' -bench Merge50k -benchtime 10x
func BenchmarkMerge50k(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	dir, err := realDir(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	home := isolateGitB(b)
	run := func(stdin []byte, args ...string) time.Duration {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(gitEnv(home), "GIT_OPTIONAL_LOCKS=0")
		cmd.Stdin = bytes.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	run(nil, "init", "-q", "-b", "main")
	run(mergeBenchHistory(), "fast-import", "--quiet")
	run(nil, "checkout", "-q", "-f", "a")
	set, err := roots.NewSet([]string{dir}, nil)
	if err != nil {
		b.Fatal(err)
	}
	sc := set.Scope()
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	ctx := context.Background()
	var groveT, gitT, groveCPU, gitCPU []time.Duration
	reset := func() { run(nil, "reset", "-q", "--hard", "a@{0}"); run(nil, "checkout", "-q", "-B", "a", "base-a") }
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		reset()
		b.StartTimer()
		start, cpu := time.Now(), cpuTime()
		_, out, err := r.mergeTool(ctx, nil, sc, mergecmd.MergeArgs{RepoPath: dir, Revision: "b"})
		if err != nil || out.Result != mergecmd.ResultMerged {
			b.Fatalf("git_merge: %+v %v", out, err)
		}
		groveT, groveCPU = append(groveT, time.Since(start)), append(groveCPU, cpuTime()-cpu)
		b.StopTimer()
		reset()
		start = time.Now()
		c := run(nil, "merge", "-q", "--no-edit", "b")
		gitT, gitCPU = append(gitT, time.Since(start)), append(gitCPU, c)
		b.StartTimer()
	}
	g, k := medianDur(groveT), medianDur(gitT)
	b.ReportMetric(float64(g.Microseconds())/1000, "grove-ms")
	b.ReportMetric(float64(k.Microseconds())/1000, "git-ms")
	b.ReportMetric(float64(g)/float64(k), "grove/git")
	gc, kc := medianDur(groveCPU), medianDur(gitCPU)
	b.ReportMetric(float64(gc.Microseconds())/1000, "grove-cpu-ms")
	b.ReportMetric(float64(kc.Microseconds())/1000, "git-cpu-ms")
	b.ReportMetric(float64(gc)/float64(kc), "grove/git-cpu")
}

func medianDur(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func isolateGitB(b *testing.B) string {
	home := b.TempDir()
	b.Setenv("HOME", home)
	b.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": testAuthorName, "GIT_AUTHOR_EMAIL": testAuthorEmail,
		"GIT_COMMITTER_NAME": testCommitterName, "GIT_COMMITTER_EMAIL": testCommitterEmail} {
		b.Setenv(k, v)
	}
	return home
}

// mergeBenchHistory is a fast-import stream: base with 50,000 files in 500 directories, branch a changing
// files 0-999 and branch b changing files 1000-1999, each one commit on base (tags base-a for resets).
func mergeBenchHistory() []byte {
	var buf bytes.Buffer
	name := func(i int) string { return fmt.Sprintf("d%03d/f%05d.txt", i%500, i) }
	body := func(i int, extra string) string {
		return fmt.Sprintf("package p%d\n\nfunc F%d() int {\n\treturn %d\n}\n%s", i, i, i, extra)
	}
	commit := func(ref, from string, files func(func(string, string))) {
		fmt.Fprintf(&buf, "commit %s\ncommitter c <c@x> 1700000000 +0000\ndata 0\n", ref)
		if from != "" {
			fmt.Fprintf(&buf, "from %s\n", from)
		}
		files(func(p, data string) { fmt.Fprintf(&buf, "M 100644 inline %s\ndata %d\n%s\n", p, len(data), data) })
	}
	commit("refs/heads/base", "", func(add func(string, string)) {
		for i := range 50000 {
			add(name(i), body(i, ""))
		}
	})
	commit("refs/heads/a", "refs/heads/base", func(add func(string, string)) {
		for i := range 1000 {
			add(name(i), body(i, "// changed on a\n"))
		}
	})
	fmt.Fprintf(&buf, "reset refs/heads/base-a\nfrom refs/heads/a\n\n")
	commit("refs/heads/b", "refs/heads/base", func(add func(string, string)) {
		for i := 1000; i < 2000; i++ {
			add(name(i), body(i, "// changed on b\n"))
		}
	})
	return buf.Bytes()
}
