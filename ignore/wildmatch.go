package ignore

// This file is a port of git's wildmatch.c (dowild), the glob engine behind
// gitignore(5). Patterns are interpreted byte by byte, exactly as git does,
// instead of being translated into regular expressions: a translation is how
// other libraries came to treat "*+" as "match everything".

// Results of match; the abort values let a failed "*" stop its callers from
// retrying at later positions that cannot succeed either.
const (
	wmNoMatch = iota
	wmMatch
	wmAbortAll
	wmAbortToStarStar
)

// wildmatch reports whether text matches pattern. With pathname set, "*",
// "?" and "[...]" never match "/", and "**" between slashes spans directories
// (git's WM_PATHNAME). Matching is case-sensitive.
func wildmatch(pattern, text string, pathname bool) bool {
	return dowild(pattern, text, pathname) == wmMatch
}

// at returns s[i], or 0 past the end, mirroring C's NUL terminator.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

func dowild(p, text string, pathname bool) int {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		tc := at(text, ti)
		if ti >= len(text) && pc != '*' {
			return wmAbortAll
		}
		switch pc {
		case '\\':
			// Literal match with the next byte; a trailing backslash
			// compares against NUL and so never matches.
			pi++
			if at(p, pi) != tc {
				return wmNoMatch
			}
		case '?':
			if pathname && tc == '/' {
				return wmNoMatch
			}
		case '*':
			r, next, nt, done := star(p, pi, text, ti, pathname)
			if done {
				return r
			}
			pi, ti = next, nt
		case '[':
			ok, next := class(p, pi, tc)
			if next < 0 {
				return wmAbortAll
			}
			if !ok || (pathname && tc == '/') {
				return wmNoMatch
			}
			pi = next
		default:
			if tc != pc {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// star handles a "*" or "**" at p[pi]. It either finishes the match (done)
// with result r, or, for a single "*" followed by "/", returns the positions
// at which the main loop continues: pi at the "/" and ti at the next "/" in
// text (both consumed by the loop's increment).
func star(p string, pi int, text string, ti int, pathname bool) (r, npi, nti int, done bool) {
	matchSlash := !pathname
	pi++
	if at(p, pi) == '*' {
		prev := pi - 2
		for pi++; at(p, pi) == '*'; pi++ {
		}
		c := at(p, pi)
		if !pathname {
			matchSlash = true // without WM_PATHNAME, "**" is "*"
		} else if (prev < 0 || p[prev] == '/') &&
			(c == 0 || c == '/' || (c == '\\' && at(p, pi+1) == '/')) {
			// "**/" may match nothing at all: foo/**/bar matches foo/bar.
			if c == '/' && dowild(p[pi+1:], text[ti:], pathname) == wmMatch {
				return wmMatch, 0, 0, true
			}
			matchSlash = true
		} else {
			matchSlash = false
		}
	}
	rest := text[ti:]
	if pi >= len(p) {
		// A trailing "**" matches everything; a trailing "*" only what
		// has no further slash.
		if !matchSlash && indexByte(rest, '/') >= 0 {
			return wmNoMatch, 0, 0, true
		}
		return wmMatch, 0, 0, true
	}
	if !matchSlash && p[pi] == '/' {
		// One "*" followed by "/" matches the rest of one component.
		slash := indexByte(rest, '/')
		if slash < 0 {
			return wmNoMatch, 0, 0, true
		}
		return 0, pi, ti + slash, false
	}
	return starLoop(p[pi:], text, ti, matchSlash, pathname), 0, 0, true
}

// starLoop tries the rest of the pattern at every position of text from ti
// on, as the "while (1)" loop of dowild does.
func starLoop(p, text string, ti int, matchSlash, pathname bool) int {
	for ti < len(text) {
		if !isGlobSpecial(p[0]) {
			// Skip ahead to the next occurrence of the literal that
			// follows the star; without matchSlash, not past a "/".
			for ti < len(text) && (matchSlash || text[ti] != '/') && text[ti] != p[0] {
				ti++
			}
			if ti >= len(text) || text[ti] != p[0] {
				return wmNoMatch
			}
		}
		m := dowild(p, text[ti:], pathname)
		if m != wmNoMatch {
			if !matchSlash || m != wmAbortToStarStar {
				return m
			}
		} else if !matchSlash && text[ti] == '/' {
			return wmAbortToStarStar
		}
		ti++
	}
	return wmAbortAll
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
