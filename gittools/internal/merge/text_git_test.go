package merge

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
)

// randomText is n lines drawn from a small vocabulary, so that lines repeat as they do in code.
func randomText(r *rand.Rand, n int) []string {
	words := []string{"a", "b", "c", "d", "{", "}", "", "return x", "x++", "if y {"}
	out := make([]string, n)
	for i := range out {
		out[i] = words[r.IntN(len(words))] + "\n"
	}
	return out
}

// edit changes a few random lines of base: replaced, deleted or inserted.
func edit(r *rand.Rand, base []string) []string {
	out := append([]string(nil), base...)
	for range 1 + r.IntN(3) {
		i := r.IntN(len(out) + 1)
		switch r.IntN(3) {
		case 0:
			out = append(out[:i], append(randomText(r, 1+r.IntN(3)), out[i:]...)...)
		case 1:
			if i < len(out) {
				out = append(out[:i], out[min(len(out), i+1+r.IntN(2)):]...)
			}
		default:
			if i < len(out) {
				out[i] = fmt.Sprintf("changed %d\n", r.IntN(5))
			}
		}
	}
	return out
}

type textCase struct{ base, ours, theirs []byte }

func randomCases(seed uint64, n int) []textCase {
	r := rand.New(rand.NewPCG(seed, 2))
	out := make([]textCase, n)
	for i := range out {
		b := randomText(r, 5+r.IntN(20))
		o, t := edit(r, b), edit(r, b)
		if r.IntN(4) == 0 { // a last line without a newline
			o[len(o)-1] = strings.TrimSuffix(o[len(o)-1], "\n")
		}
		out[i] = textCase{[]byte(strings.Join(b, "")), []byte(strings.Join(o, "")), []byte(strings.Join(t, ""))}
	}
	return out
}

// gitMerges merges every case with `git merge-tree` (git's default merge) in a fresh repository and returns
// the merged file of each, with the branches named o<i> and t<i> in the markers.
func gitMerges(t *testing.T, cases []textCase, style string) [][]byte {
	t.Helper()
	dir := t.TempDir()
	run := func(stdin []byte, args ...string) []byte {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "merge.conflictStyle=" + style}, args...)...)
		cmd.Stdin = bytes.NewReader(stdin)
		out, err := cmd.Output()
		if _, ok := err.(*exec.ExitError); err != nil && !(ok && args[0] == "merge-tree") {
			t.Fatalf("git %v: %v", args, err)
		}
		return out
	}
	run(nil, "init", "-q")
	var fi bytes.Buffer
	commit := func(ref string, data []byte, from string) {
		fmt.Fprintf(&fi, "commit refs/heads/%s\ncommitter t <t@t> 1 +0000\ndata 0\n", ref)
		if from != "" {
			fmt.Fprintf(&fi, "from refs/heads/%s\n", from)
		}
		fmt.Fprintf(&fi, "M 100644 inline f\ndata %d\n%s\n", len(data), data)
	}
	for i, c := range cases {
		commit(fmt.Sprintf("b%d", i), c.base, "")
		commit(fmt.Sprintf("o%d", i), c.ours, fmt.Sprintf("b%d", i))
		commit(fmt.Sprintf("t%d", i), c.theirs, fmt.Sprintf("b%d", i))
	}
	run(fi.Bytes(), "fast-import", "--quiet")
	var batch bytes.Buffer
	for i := range cases {
		tree := strings.SplitN(string(run(nil, "merge-tree", "--write-tree", fmt.Sprintf("o%d", i), fmt.Sprintf("t%d", i))), "\n", 2)[0]
		fmt.Fprintf(&batch, "%s:f\n", tree)
	}
	out := run(batch.Bytes(), "cat-file", "--batch")
	var res [][]byte
	for len(out) > 0 {
		nl := bytes.IndexByte(out, '\n')
		var h, typ string
		var size int
		fmt.Sscanf(string(out[:nl]), "%s %s %d", &h, &typ, &size)
		res = append(res, out[nl+1:nl+1+size])
		out = out[nl+1+size+1:]
	}
	return res
}

func TestMergeTextAgreesWithGit(t *testing.T) {
	cases := randomCases(1, 300)
	for _, style := range []Style{StyleMerge, StyleDiff3} {
		name := map[Style]string{StyleMerge: "merge", StyleDiff3: "diff3"}[style]
		t.Run(name, func(t *testing.T) {
			want := gitMerges(t, cases, name)
			bad := 0
			for i, c := range cases {
				got := MergeText(c.base, c.ours, c.theirs, style, Labels{Base: "", Ours: fmt.Sprintf("o%d", i), Theirs: fmt.Sprintf("t%d", i)})
				if style == StyleDiff3 {
					got.Data = stripBaseLabels(got.Data)
					want[i] = stripBaseLabels(want[i])
				}
				if !bytes.Equal(got.Data, want[i]) {
					bad++
					if bad <= 3 {
						t.Logf("case %d\nbase:\n%s\nours:\n%s\ntheirs:\n%s\nwant:\n%s\ngot:\n%s", i, c.base, c.ours, c.theirs, want[i], got.Data)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d merges differ from git merge-tree", bad, len(cases))
			}
		})
	}
}

// stripBaseLabels drops the label of "|||||||" lines (git names the base by its abbreviated commit hash).
func stripBaseLabels(b []byte) []byte {
	lines := strings.SplitAfter(string(b), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "||||||| ") {
			lines[i] = "|||||||\n"
		}
	}
	return []byte(strings.Join(lines, ""))
}
