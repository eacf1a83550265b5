package linediff

// A diff printed without context (git diff -U0, and the diff git blame passes lines through) is computed
// by git on shortened texts: before diffing, git drops the longest common tail made of whole blocks of
// tailBlock bytes, compared from the ends of both texts, and then gives back what it dropped up to and
// including the first newline, so that both texts still end on a whole line. Git found it to be a speed-up
// (nothing in a dropped tail can change), but it moves groups of changes that could slide into the
// dropped part: with it they stop at the new end of the text, which can also change what the indent
// heuristic prefers. Blame agrees with git only with the same shortening (measured with `git blame` and
// `git diff -U0` as oracles: a change slides to a different place as the common tail crosses each
// multiple of 1,024 bytes, and to the same place as `git diff -U0` shows).

// tailBlock is the size of the blocks in which git compares and drops a common tail.
const tailBlock = 1024

// DiffNoContext returns the changes that turn lines a into lines b as a diff without context places them
// (see [Differ.DiffNoContext]).
func DiffNoContext(a, b []string) []Change {
	var d Differ
	return d.DiffNoContext(d.Text(a), d.Text(b))
}

// DiffNoContext returns the changes that turn a into b as a diff without context lines places them, as
// `git diff -U0` and `git blame` do: [Differ.Diff] on a and b shortened by the common tail git drops.
func (d *Differ) DiffNoContext(a, b Text) []Change {
	n := tailDrop(a, b)
	return d.Diff(a.head(a.Len()-n), b.head(b.Len()-n))
}

// head returns the first n lines of t, sharing its numbering.
func (t Text) head(n int) Text { return Text{lines: t.lines[:n], ids: t.ids[:n]} }

// tailDrop returns how many whole lines at the end of a and b git drops before a diff without context:
// the common tail's bytes, rounded down to whole blocks, mark a cut; the lines starting after the cut go.
func tailDrop(a, b Text) int {
	na, nb := a.Len(), b.Len()
	k, size := 0, 0 // common whole lines at the end, and their bytes
	for k < na && k < nb && a.lines[na-1-k] == b.lines[nb-1-k] {
		size += len(a.lines[na-1-k])
		k++
	}
	if k < na && k < nb {
		size += commonSuffix(a.lines[na-1-k], b.lines[nb-1-k])
	}
	cut := size / tailBlock * tailBlock
	drop := 0
	for from := 0; drop < k; drop++ {
		from += len(a.lines[na-1-drop])
		if from >= cut {
			break
		}
	}
	return drop
}

// commonSuffix returns the length of the longest common suffix of x and y in bytes.
func commonSuffix(x, y string) int {
	n := 0
	for n < len(x) && n < len(y) && x[len(x)-1-n] == y[len(y)-1-n] {
		n++
	}
	return n
}
