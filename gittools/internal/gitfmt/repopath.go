package gitfmt

// Paths read from repository data (index entries, cache-tree nodes, tree entries) are input like any argument:
// a crafted repository can put any bytes there. Every loader checks them with validRepoPath or
// validPathComponent, the one definition of a path git would write, before anything else uses them; and every
// walk up a path's parents goes through parentDirs, which ends whatever the path holds.

import (
	"iter"
	"path"
	"runtime"
	"strings"
	"unicode/utf8"
)

// MaxRepoPath bounds a path from repository data: Linux's PATH_MAX. A longer path cannot be checked out, and a
// version-4 index could otherwise grow its names by a byte per entry into gigabytes.
const MaxRepoPath = 4096

// ValidPath reports whether name is a path git itself would put in an index or build a tree from
// (git's verify_path, with core.protectNTFS and core.protectHFS on, their defaults): relative and
// slash-separated, at most maxRepoPath bytes, every component valid (see validPathComponent). A crafted index could otherwise lead a
// walk from the worktree's descriptor up and out of it, a write into .git, or a loop over parents that never
// reaches ".".
func ValidPath(name string) bool {
	if name == "" || len(name) > MaxRepoPath {
		return false
	}
	for {
		comp, rest, more := strings.Cut(name, "/")
		if !ValidPathComponent(comp) {
			return false
		}
		if !more {
			return true
		}
		name = rest
	}
}

// ValidPathComponent reports whether c is one name git would write as a tree entry or a path component: not
// empty, ".", ".." or a name a filesystem may take for .git (any letter case, NTFS's trailing dots and
// spaces, its short name git~1 and its stream syntax, HFS+'s ignored code points), and without NUL or '/'.
// A backslash is a separator to Windows, so each part between backslashes must pass the same checks (and on
// Windows no backslash or colon is allowed at all).
func ValidPathComponent(c string) bool {
	if ok, sure := plainComponent(c); sure {
		return ok
	}
	return validComponent(c)
}

// validComponent is ValidPathComponent without its fast path for plain ASCII names.
func validComponent(c string) bool {
	if c == "" || strings.ContainsAny(c, "/\x00") {
		return false
	}
	if runtime.GOOS == "windows" && strings.ContainsAny(c, `\:`) {
		return false
	}
	for {
		part, rest, more := strings.Cut(c, `\`)
		if part == "" || part == "." || part == ".." || dotGitAlias(part) {
			return false
		}
		if !more {
			return true
		}
		c = rest
	}
}

// plainComponent decides ValidPathComponent in one pass over c for the names nearly every index holds: ASCII
// without a backslash (so no Windows separator, no invalid UTF-8, no HFS+ ignorable code point), where only
// a name of four bytes or more starting with '.', 'g' or 'G' can be an alias of .git. sure is false for the
// rest, which the general checks decide; the index parse checks every entry's name, a fifth of its time on
// 5,000 entries before this.
func plainComponent(c string) (ok, sure bool) {
	if c == "" || runtime.GOOS == "windows" {
		return false, c == ""
	}
	for i := 0; i < len(c); i++ {
		switch b := c[i]; {
		case b == '/' || b == 0:
			return false, true
		case b == '\\' || b >= utf8.RuneSelf:
			return false, false
		}
	}
	if c == "." || c == ".." {
		return false, true
	}
	if len(c) >= 4 && (c[0] == '.' || c[0] == 'g' || c[0] == 'G') {
		return !dotGitAlias(c), true
	}
	return true, true
}

// dotGitAlias reports whether some filesystem would open the name c as .git.
func dotGitAlias(c string) bool {
	if !utf8.ValidString(c) {
		return false
	}
	c = withoutHFSIgnorable(c)
	if len(c) < 4 || (c[0] != '.' && c[0] != 'g' && c[0] != 'G') {
		return false
	}
	if i := strings.IndexByte(c, ':'); i >= 0 {
		c = c[:i] // NTFS: ".git::$INDEX_ALLOCATION" is the directory .git
	}
	c = strings.TrimRight(c, ". ") // NTFS ignores trailing dots and spaces
	return strings.EqualFold(c, ".git") || strings.EqualFold(c, "git~1")
}

// withoutHFSIgnorable drops the code points HFS+ ignores when it compares names (Apple's Technical Note
// TN1150), so ".g\u200cit" counts as ".git" there.
func withoutHFSIgnorable(c string) string {
	if !strings.ContainsFunc(c, hfsIgnorable) {
		return c
	}
	return strings.Map(func(r rune) rune {
		if hfsIgnorable(r) {
			return -1
		}
		return r
	}, c)
}

func hfsIgnorable(r rune) bool {
	return r >= 0x200c && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x206a && r <= 0x206f || r == 0xfeff
}

// ParentDirs yields the directories above the slash path p, nearest first, and stops before "."; it also stops
// at "/" and at anything path.Dir does not shorten, so it ends whatever p holds ("/etc/x" yields "/etc").
// Callers that need the parents to be real components validate p first.
func ParentDirs(p string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for d := path.Dir(p); d != "." && d != "/" && len(d) < len(p); d = path.Dir(d) {
			if !yield(d) {
				return
			}
			p = d
		}
	}
}
