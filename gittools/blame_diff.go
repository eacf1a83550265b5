// Derived from git's xdiff (LibXDiff by Davide Libenzi, as modified in git), which is licensed under the
// GNU LGPL 2.1 or later. grove's own license is not settled; see docs/rough-edges.md before relicensing.

package gittools

// blameDiff returns the changes from a to b the way git blame's diff finds them (xdi_diff: the common tail
// trimmed in 1 KB blocks, then xdiff).
func blameDiff(a, b *blobText, lc *lineClasses) []lineChange {
	drop := commonTailLines(a.lines, b.lines)
	na, nb := len(a.lines)-drop, len(b.lines)-drop
	return xdiff(a.lines[:na], b.lines[:nb], a.class[:na], b.class[:nb], lc)
}

// blobText is a blob's lines and their classes.
type blobText struct {
	lines []string
	class []int32
}

// trimBlock is the unit in which xdiff-interface.c's trim_common_tail drops a common tail.
const trimBlock = 1024

// commonTailLines is trim_common_tail in lines: how many trailing lines, equal in a and b, git leaves out of
// the diff. It drops whole 1 KB blocks of the common byte suffix, then gives back bytes up to the first
// newline so that the cut falls on a line boundary.
func commonTailLines(a, b []string) int {
	sa, sb := textSize(a), textSize(b)
	smaller := min(sa, sb)
	common := 0
	for i, j := len(a)-1, len(b)-1; i >= 0 && j >= 0 && common < smaller; i, j = i-1, j-1 {
		if a[i] != b[j] {
			common += commonSuffixLen(a[i], b[j])
			break
		}
		common += len(a[i])
	}
	trimmed := min(common, smaller) / trimBlock * trimBlock
	if trimmed == 0 {
		return 0
	}
	cut := sa - trimmed // the first trimmed byte of a; the kept text runs to the end of its line
	end := sa
	for i := len(a) - 1; i >= 0; i-- {
		start := end - len(a[i])
		if start <= cut {
			if a[i][len(a[i])-1] != '\n' {
				return 0
			}
			return len(a) - 1 - i
		}
		end = start
	}
	return 0
}

func textSize(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	return n
}

func commonSuffixLen(x, y string) int {
	n := 0
	for n < len(x) && n < len(y) && x[len(x)-1-n] == y[len(y)-1-n] {
		n++
	}
	return n
}
