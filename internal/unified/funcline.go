package unified

// funcFinder finds hunk-header function lines, remembering the last one found, so that hunks in the same
// function share its header without searching again.
type funcFinder struct {
	lines []string
	match func(string) (string, bool)
	prev  int // where the previous search started; searches stop there
	last  string
}

// MaxFuncLine is the most bytes of a function line a hunk header carries, as `git diff` cuts them.
const MaxFuncLine = 80

func (f *funcFinder) find(start int) string {
	for l := start; l != f.prev && l >= 0 && l < len(f.lines); l-- {
		if s, ok := f.match(f.lines[l]); ok {
			f.last = s
			break
		}
	}
	f.prev = start
	return f.last
}

// DefaultFuncLine applies the default hunk-header rule of gitattributes(5) ("Defining a custom
// hunk-header"): a line that begins with a letter, an underscore or a dollar sign names the function. The
// header carries its first MaxFuncLine bytes without trailing white space.
func DefaultFuncLine(line string) (string, bool) {
	if line == "" {
		return "", false
	}
	c := line[0]
	if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '$') {
		return "", false
	}
	return Trim(line), true
}

// Trim cuts a function line to MaxFuncLine bytes, then drops trailing white space.
func Trim(line string) string {
	if len(line) > MaxFuncLine {
		line = line[:MaxFuncLine]
	}
	for len(line) > 0 && isSpace(line[len(line)-1]) {
		line = line[:len(line)-1]
	}
	return line
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
