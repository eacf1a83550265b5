package gittools

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/mergecmd"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
)

// mergeMemoryLimit is issue 22's bound on a merge touching 10,000 files.
const mergeMemoryLimit = 256 << 20

// TestMergeTenThousandFilesMemory merges two branches of a 10,000-file repository: a changed files 0-4,999
// and b changed all 10,000, so 5,000 files are merged line by line and 10,000 are written to the worktree.
// The merge runs in a child process (this test binary again) so that its peak resident set (VmHWM) is the
// merge's alone; it must stay within 256 MiB, and the merged tree must be git's (git merge-tree).
func TestMergeTenThousandFilesMemory(t *testing.T) {
	if dir := os.Getenv("GROVE_MERGE_MEMORY_CHILD"); dir != "" {
		mergeMemoryChild(t, dir)
		return
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc/self/status for the peak resident set")
	}
	if raceEnabled {
		t.Skip("the race detector multiplies memory use: the bound is checked without it")
	}
	if testing.Short() {
		t.Skip("builds a 10,000-file repository")
	}
	dir := realTemp(t)
	home := isolateGit(t)
	run := func(stdin []byte, args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = gitEnv(home)
		cmd.Stdin = bytes.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run(nil, "init", "-q", "-b", "main")
	run(tenThousandHistory(), "fast-import", "--quiet")
	run(nil, "checkout", "-q", "-f", "a")
	gitTree := run(nil, "merge-tree", "--write-tree", "a", "b")

	cmd := exec.Command(os.Args[0], "-test.run=^TestMergeTenThousandFilesMemory$", "-test.v")
	cmd.Env = append(os.Environ(), "GROVE_MERGE_MEMORY_CHILD="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	_, rest, ok := strings.Cut(string(out), "VmHWM-bytes=")
	if !ok {
		t.Fatalf("child printed no VmHWM:\n%s", out)
	}
	hwm, err := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("peak resident set of the merge's process: %.1f MiB (bound %d MiB); %s", float64(hwm)/(1<<20), mergeMemoryLimit>>20, strings.TrimSpace(rest))
	if hwm > mergeMemoryLimit {
		t.Errorf("peak resident set %d bytes, over %d", hwm, mergeMemoryLimit)
	}
	if got := run(nil, "rev-parse", "a^{tree}"); got != gitTree {
		t.Errorf("grove's merged tree %s, git's %s", got, gitTree)
	}
	if got := run(nil, "status", "--porcelain"); got != "" {
		t.Errorf("worktree after grove's merge: %q", got)
	}
}

// mergeMemoryChild runs git_merge of b into a in dir and prints the process's peak resident set.
func mergeMemoryChild(t *testing.T, dir string) {
	set, err := roots.NewSet([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := set.Scope()
	r := New(Options{Scope: scope.Static(sc)})
	defer r.Close()
	start := time.Now()
	_, out, err := r.mergeTool(context.Background(), nil, sc, mergecmd.MergeArgs{RepoPath: dir, Revision: "b"})
	if err != nil || out.Result != mergecmd.ResultMerged {
		t.Fatalf("git_merge: %+v %v", out, err)
	}
	if len(out.Updated) != 10000 {
		t.Errorf("%d files written, want 10,000", len(out.Updated))
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" && f[2] == "kB" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Printf("VmHWM-bytes=%d heap-sys=%d merge-time=%v\n", kb<<10, ms.HeapSys, time.Since(start))
			return
		}
	}
	t.Fatal("no VmHWM line in /proc/self/status")
}

// tenThousandHistory is a fast-import stream: base with 10,000 five-line files in 100 directories; a appends
// a line to files 0-4,999, b prepends one to every file.
func tenThousandHistory() []byte {
	var buf bytes.Buffer
	name := func(i int) string { return fmt.Sprintf("d%03d/f%05d.txt", i%100, i) }
	body := func(i int) string { return fmt.Sprintf("package p%d\n\nfunc F%d() int {\n\treturn %d\n}\n", i, i, i) }
	commit := func(ref, from string, lo, hi int, data func(int) string) {
		fmt.Fprintf(&buf, "commit %s\ncommitter c <c@x> 1700000000 +0000\ndata 0\n", ref)
		if from != "" {
			fmt.Fprintf(&buf, "from %s\n", from)
		}
		for i := lo; i < hi; i++ {
			d := data(i)
			fmt.Fprintf(&buf, "M 100644 inline %s\ndata %d\n%s\n", name(i), len(d), d)
		}
	}
	commit("refs/heads/base", "", 0, 10000, body)
	commit("refs/heads/a", "refs/heads/base", 0, 5000, func(i int) string { return body(i) + "// a\n" })
	commit("refs/heads/b", "refs/heads/base", 0, 10000, func(i int) string { return "// b\n" + body(i) })
	return buf.Bytes()
}
