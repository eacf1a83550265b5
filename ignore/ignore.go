// Package ignore is grove's one .gitignore matcher: resource listing, file
// search, file watching and git status all ask it which paths git would
// ignore, so they agree with each other and with git.
//
// It follows gitignore(5) exactly, with a port of git's wildmatch instead of
// regular expressions, and reads the same sources as git: core.excludesFile
// (lowest precedence), .git/info/exclude, then the .gitignore files from the
// root down to the path's directory (highest). Files tracked in .git/index
// are never ignored, and a directory that holds tracked files is not pruned.
// Nested repositories are matched with their own rules.
//
//	m, err := ignore.New("/home/me/project")
//	if err != nil { … }
//	m.Ignored("build/out.o", false) // true with "*.o" in .gitignore
//	err = m.Walk(ctx, func(rel string, d fs.DirEntry) error { … })
//
// # Caching
//
// .gitignore files are read lazily, once per directory, and the tracked set
// once per change of .git/index (its size, time or identity). Ignored trusts
// these caches; Walk re-reads every .gitignore it meets and re-checks the
// index; Invalidate drops everything.
//
// # I/O
//
// Everything under the directory is read through an [os.Root], never
// following a symlinked .gitignore (as git ≥ 2.32). Git data is read only if
// it lies inside the directory: a linked worktree whose git directory is
// elsewhere is treated as a plain tree of .gitignore files. The global git
// configuration and core.excludesFile are read where git reads them.
package ignore

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// Matcher decides which paths under one directory git would ignore. It is
// safe for concurrent use.
type Matcher struct {
	boundary string // real directory through whose os.Root all tree I/O goes
	prefix   string // this worktree within boundary: "" or "sub/"

	mu sync.Mutex // guards all fields below
	st *state     // nil until first needed and after Invalidate
}

// state is what Invalidate drops: everything read from the tree.
type state struct {
	repo        *repo
	global      []*list // info/exclude, then core.excludesFile
	hashSize    int
	nodes       map[string]*dirNode
	tracked     *tracked
	indexInfo   os.FileInfo // of the index tracked was read from
	indexLoaded bool
}

// dirNode is what the matcher knows about one directory. Nodes are
// immutable once built.
type dirNode struct {
	rel    string // "" for the worktree's top
	parent *dirNode
	list   *list    // its .gitignore
	data   string   // the .gitignore's content, to tell whether it changed
	excl   *pattern // non-nil if the directory or an ancestor is excluded
	nested *Matcher // set if the directory is another repository's worktree
}

// New builds the matcher for the tree rooted at dir (an absolute, real
// directory). If dir is a git worktree it applies .git/info/exclude,
// core.excludesFile (repo config, then global config), and never ignores
// tracked files (paths in .git/index). Outside a repository it still honours
// .gitignore files found in the tree.
func New(dir string) (*Matcher, error) {
	dir, err := filepath.Abs(dir)
	if err == nil {
		// Real already, by contract; resolving again keeps the checks on
		// git directories (which compare real paths) right if it is not.
		dir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	root.Close()
	return &Matcher{boundary: dir}, nil
}

// Invalidate drops cached .gitignore contents, exclude files and the tracked
// set; call it when a .gitignore, .git/info/exclude or .git/index changed.
func (m *Matcher) Invalidate() {
	m.mu.Lock()
	m.st = nil
	m.mu.Unlock()
}

// state returns the current state, loading the repository's global sources
// the first time.
func (m *Matcher) state(lr *lazyRoot) *state {
	m.mu.Lock()
	st := m.st
	m.mu.Unlock()
	if st != nil {
		return st
	}
	st = m.load(lr)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.st == nil {
		m.st = st
	}
	return m.st
}

// load reads the repository layout, config and exclude files.
func (m *Matcher) load(lr *lazyRoot) *state {
	st := &state{nodes: make(map[string]*dirNode)}
	top := strings.TrimSuffix(m.prefix, "/")
	if top == "" {
		top = "."
	}
	st.repo = findRepo(lr, m.boundary, top)
	cfg := loadConfig(lr, st.repo)
	st.hashSize = cfg.hashSize
	if st.repo != nil {
		name := path.Join(st.repo.commonDir, "info", "exclude")
		if data, err := readIn(lr, name); err == nil {
			st.global = append(st.global, parse(data, "", name))
		}
	}
	excludes := cfg.excludesFile
	if excludes == "" {
		excludes = xdgPath("ignore")
	} else if !filepath.IsAbs(excludes) {
		excludes = filepath.Join(m.boundary, filepath.FromSlash(m.prefix), excludes)
	}
	if excludes != "" {
		if data, err := readFile(excludes); err == nil {
			st.global = append(st.global, parse(data, "", excludes))
		}
	}
	return st
}
