package ignore

import (
	"path"
	"strings"
)

// Ignored reports whether git would ignore rel, a slash-separated path
// relative to the matcher's directory; isDir says whether it names a
// directory (patterns ending in "/" match only those). Tracked paths, and
// directories that hold tracked paths, are never ignored. An empty, ".", or
// non-local rel is not ignored. A .git entry and everything below one count
// as ignored, as Walk never visits them: so for every entry Walk reaches,
// Walk reports it exactly when Ignored is false. The answer comes from
// cached rules: see the package documentation.
func (m *Matcher) Ignored(rel string, isDir bool) bool {
	p, tracked := m.decide(rel, isDir)
	return p != nil && p.flags&flagNegative == 0 && !tracked
}

// Tracked reports whether rel is in the index, or, for a directory, whether
// it holds a tracked path. It is false outside a repository.
func (m *Matcher) Tracked(rel string) bool {
	rel, ok := cleanRel(rel)
	if !ok {
		return false
	}
	lr := m.lazy()
	defer lr.close()
	return m.trackedIn(lr, rel)
}

func (m *Matcher) trackedIn(lr *lazyRoot, rel string) bool {
	st := m.state(lr)
	node, rest := m.parentNode(lr, st, rel)
	if node.nested != nil {
		return node.nested.trackedIn(lr, rest)
	}
	t := m.trackedSet(lr, st, false)
	return t.has(rel) || t.hasUnder(rel)
}

// decide returns the pattern deciding rel (possibly a negated one, or nil
// if none matches) and whether rel is tracked, which overrides it.
func (m *Matcher) decide(rel string, isDir bool) (*pattern, bool) {
	rel, ok := cleanRel(rel)
	if !ok || rel == "" {
		return nil, false
	}
	if inGitDir(rel) {
		return gitDirPattern, false
	}
	lr := m.lazy()
	defer lr.close()
	return m.decideIn(lr, rel, isDir)
}

func (m *Matcher) decideIn(lr *lazyRoot, rel string, isDir bool) (*pattern, bool) {
	st := m.state(lr)
	node, rest := m.parentNode(lr, st, rel)
	if node.nested != nil {
		return node.nested.decideIn(lr, rest, isDir)
	}
	p := node.excl
	if p == nil {
		p = st.match(node, rel, path.Base(rel), isDir)
	}
	if p == nil || p.flags&flagNegative != 0 {
		return p, false
	}
	t := m.trackedSet(lr, st, false)
	return p, t.has(rel) || t.hasUnder(rel)
}

// match returns the pattern deciding rel among the ignore files that apply
// in node's directory: the deepest .gitignore first, then info/exclude and
// core.excludesFile.
func (st *state) match(node *dirNode, rel, name string, isDir bool) *pattern {
	for n := node; n != nil; n = n.parent {
		if p := n.list.match(rel, name, isDir); p != nil {
			return p
		}
	}
	for _, l := range st.global {
		if p := l.match(rel, name, isDir); p != nil {
			return p
		}
	}
	return nil
}

// parentNode returns the node of rel's parent directory, or, when the path
// crosses into a nested repository, that repository's node and the rest of
// the path relative to it.
func (m *Matcher) parentNode(lr *lazyRoot, st *state, rel string) (*dirNode, string) {
	dir := ""
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir = rel[:i]
	}
	m.mu.RLock()
	node := st.nodes[dir] // built with all its ancestors, so no repository boundary lies above
	m.mu.RUnlock()
	if node != nil {
		if node.nested != nil {
			return node, rel[len(dir)+1:]
		}
		return node, rel
	}
	node = m.node(lr, st, nil, "", nil)
	for i := 0; i < len(rel); i++ {
		if rel[i] != '/' {
			continue
		}
		node = m.node(lr, st, node, rel[:i], nil)
		if node.nested != nil {
			return node, rel[i+1:]
		}
	}
	return node, rel
}

// dirHint carries what a directory listing already told about a directory.
type dirHint struct {
	hasIgnore bool      // it has a .gitignore
	hasGit    bool      // it has a .git entry
	dir       *lazyRoot // holds the directory
	name      string    // the directory's name in dir
}

// node returns the cached node for directory rel (child of parent), or builds
// it. A non-nil hint means the caller has just listed the directory: the node
// is rebuilt from fresh data and replaces the cached one.
func (m *Matcher) node(lr *lazyRoot, st *state, parent *dirNode, rel string, hint *dirHint) *dirNode {
	if hint == nil {
		m.mu.RLock()
		n := st.nodes[rel]
		m.mu.RUnlock()
		if n != nil {
			return n
		}
	}
	n := m.build(lr, st, parent, rel, hint)
	m.mu.Lock()
	defer m.mu.Unlock()
	old := st.nodes[rel]
	switch {
	case old != nil && (hint == nil || old.same(n)):
		return old // keeps the cached subtree, which still holds
	case old != nil:
		// The directory's rules changed: nodes below were built from the
		// old ones.
		for k := range st.nodes {
			if rel == "" || strings.HasPrefix(k, rel+"/") {
				delete(st.nodes, k)
			}
		}
	}
	st.nodes[rel] = n
	return n
}

// same reports whether n was built from the same data as o.
func (o *dirNode) same(n *dirNode) bool {
	return o.parent == n.parent && o.excl == n.excl && o.data == n.data && (o.nested == nil) == (n.nested == nil)
}

// build makes the node of directory rel. An excluded directory's .gitignore
// is not read, as in git: nothing below can be re-included.
func (m *Matcher) build(lr *lazyRoot, st *state, parent *dirNode, rel string, hint *dirHint) *dirNode {
	n := &dirNode{rel: rel, parent: parent}
	io, name := lr, m.prefix+rel
	if hint != nil {
		io, name = hint.dir, hint.name
	}
	if parent != nil {
		if parent.excl != nil {
			n.excl = parent.excl
			return n
		}
		if p := st.match(parent, rel, path.Base(rel), true); p != nil && p.flags&flagNegative == 0 {
			n.excl = p
			return n
		}
		if (hint == nil || hint.hasGit) && isRepoDir(io, name) {
			n.nested = &Matcher{boundary: m.boundary, open: m.open, prefix: m.prefix + rel + "/"}
			return n
		}
	}
	if hint == nil || hint.hasIgnore {
		n.list, n.data = readIgnore(io, name, rel)
	}
	return n
}

// readIgnore reads and compiles the .gitignore of directory rel, reachable
// as name in lr, and returns it with its content; nil if there is none.
func readIgnore(lr *lazyRoot, name, rel string) (*list, string) {
	base := ""
	if rel != "" {
		base = rel + "/"
	}
	data, err := readIn(lr, path.Join(name, ".gitignore"))
	if err != nil {
		return nil, ""
	}
	return parse(data, base, base+".gitignore"), string(data)
}
