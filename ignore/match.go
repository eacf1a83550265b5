package ignore

import "strings"

// match returns the last pattern of l that matches path (slash-separated,
// relative to the matcher's root; name is its last component), or nil.
func (l *list) match(path, name string, isDir bool) *pattern {
	if l == nil {
		return nil
	}
	best := -1
	best = l.lastLiteral(l.byName[name], best, isDir)
	best = l.lastLiteral(l.byPath[path], best, isDir)
	for j := len(l.others) - 1; j >= 0; j-- {
		i := l.others[j]
		if i < best {
			break
		}
		if l.patterns[i].matches(path, name, isDir) {
			best = i
			break
		}
	}
	if best < 0 {
		return nil
	}
	return &l.patterns[best]
}

// lastLiteral returns the highest index in idx (ascending) whose pattern
// accepts isDir, or best if that is higher.
func (l *list) lastLiteral(idx []int, best int, isDir bool) int {
	for j := len(idx) - 1; j >= 0 && idx[j] > best; j-- {
		if isDir || l.patterns[idx[j]].flags&flagMustBeDir == 0 {
			return idx[j]
		}
	}
	return best
}

func (p *pattern) matches(path, name string, isDir bool) bool {
	if p.flags&flagMustBeDir != 0 && !isDir {
		return false
	}
	if p.flags&flagNoDir != 0 {
		return p.matchBasename(name)
	}
	return p.matchPathname(path)
}

// matchBasename is git's match_basename.
func (p *pattern) matchBasename(name string) bool {
	switch {
	case p.prefix == len(p.text):
		return name == p.text
	case p.flags&flagEndsWith != 0:
		return strings.HasSuffix(name, p.text[1:])
	default:
		return wildmatch(p.text, name, false)
	}
}

// matchPathname is git's match_pathname: the pattern is anchored at the
// directory of its ignore file and "/" is only matched by "/" or "**".
func (p *pattern) matchPathname(path string) bool {
	pat, prefix := p.text, p.prefix
	if pat[0] == '/' {
		pat, prefix = pat[1:], prefix-1
	}
	if len(path) < len(p.base)+1 || !strings.HasPrefix(path, p.base) {
		return false
	}
	name := path[len(p.base):]
	if prefix > 0 {
		if prefix > len(name) || pat[:prefix] != name[:prefix] {
			return false
		}
		pat, name = pat[prefix:], name[prefix:]
		if pat == "" && name == "" {
			return true
		}
	}
	return wildmatch(pat, name, true)
}
