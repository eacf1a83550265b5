// Package ignore is grove's one .gitignore matcher: resource listing, file
// search, file watching and git status all ask it which paths git would
// ignore, so they agree with each other and with git.
//
// It owns everything grove knows about ignore rules: reading the sources
// git reads, core.excludesFile (lowest precedence), .git/info/exclude, then
// the .gitignore files from the root down to the path's directory
// (highest); the pattern language of gitignore(5) and glob(7), with a glob
// matcher of its own whose cost is bounded by pattern length times path
// length (see glob.go); the tracked set from .git/index; and walking a tree
// the way git lists it. Files tracked in .git/index are never ignored, and
// a directory that holds tracked files is not pruned. Nested repositories
// are matched with their own rules.
//
//	m, err := ignore.New("/home/me/project")
//	if err != nil { … }
//	m.Ignored("build/out.o", false) // true with "*.o" in .gitignore
//	err = m.Walk(ctx, func(rel string, d fs.DirEntry) error { … })
//
// # Agreement with git
//
// Ignored(rel, isDir) is true exactly when "git check-ignore rel", run at
// the worktree's top, prints rel: tracked paths, and directories holding
// tracked paths, are not ignored; anything below an ignored directory is,
// whatever negated patterns say. Walk's non-directory entries are exactly
// "git ls-files --cached --others --exclude-standard", less tracked files
// missing from the worktree, with nested repositories (which git lists as
// "sub/") expanded by their own rules; Walk also reports every directory it
// enters, and it enters every directory that is not ignored. Paths at or
// below a .git entry, which git never looks at, count as ignored, so Walk
// reports an entry it reaches exactly when Ignored is false. The tests check
// all this against git on generated and hand-written repositories.
//
// # Caching
//
// .gitignore files are read lazily, once per directory, and the tracked set
// once per change of .git/index (its size, time or identity). Ignored trusts
// these caches; Walk re-reads every .gitignore it meets and re-checks the
// index; Invalidate drops everything.
//
// # I/O and trust
//
// Everything under the directory is read through an [os.Root], never
// following a symlinked .gitignore (as git ≥ 2.32). The git directory (and
// its commondir) is used only if it lies inside the directory: a linked
// worktree whose git directory is elsewhere is treated as a plain tree of
// .gitignore files. The global git configuration ($XDG_CONFIG_HOME/git/config,
// ~/.gitconfig) and the core.excludesFile it names are the operator's and
// are read where git reads them; a core.excludesFile named by the
// repository's own config is read only if it lies inside the directory.
// System config, include directives, config.worktree and core.ignoreCase
// are not supported (matching is case-sensitive).
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
	boundary string                   // real directory through whose os.Root all tree I/O goes
	open     func() (*os.Root, error) // opens boundary (see NewIn); nil: by its path
	prefix   string                   // this worktree within boundary: "" or "sub/"

	mu sync.RWMutex // guards all fields below, and those of st
	st *state       // nil until first needed and after Invalidate
}

// state is what Invalidate drops: everything read from the tree.
type state struct {
	repo        *repo
	global      []*list // info/exclude, then core.excludesFile
	excludes    string  // the excludes file read (or looked for), "" if none applies
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

// NewIn is New for a directory that the caller opens: open returns a new handle on dir (the caller's
// os.Root.OpenRoot through a handle it holds, say), which the matcher closes after use. Nothing is opened by
// dir's path, so a dir swapped for a symlink after the caller decided it cannot lead the matcher elsewhere.
func NewIn(dir string, open func() (*os.Root, error)) *Matcher {
	return &Matcher{boundary: filepath.Clean(dir), open: open}
}

// openRoot opens the matcher's directory.
func (m *Matcher) openRoot() (*os.Root, error) {
	if m.open != nil {
		return m.open()
	}
	return os.OpenRoot(m.boundary)
}

// lazy returns the matcher's directory, opened on first use.
func (m *Matcher) lazy() *lazyRoot { return &lazyRoot{dir: m.boundary, open: m.open} }

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
	m.mu.RLock()
	st := m.st
	m.mu.RUnlock()
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
	var l *list
	if l, st.excludes = m.excludes(lr, cfg); l != nil {
		st.global = append(st.global, l)
	}
	return st
}

// ExcludesFile is the absolute name of the excludes file whose rules apply (core.excludesFile, or the
// default $XDG_CONFIG_HOME/git/ignore), whether or not it exists; "" when none applies. A caller that keeps
// answers across calls watches it: its content changes are not among the tree's own .gitignore files.
func (m *Matcher) ExcludesFile() string {
	lr := m.lazy()
	defer lr.close()
	return m.state(lr).excludes
}

// excludes reads core.excludesFile, or $XDG_CONFIG_HOME/git/ignore if it is
// unset. A relative name is relative to the worktree's top, as git runs
// there. A file named by the repository's own config is read only if it
// lies inside the tree: the repository's content is not trusted to make
// grove read files outside its roots.
func (m *Matcher) excludes(lr *lazyRoot, cfg gitConfig) (*list, string) {
	name := cfg.excludesFile
	if name == "" {
		name = xdgPath("ignore")
	} else if !filepath.IsAbs(name) {
		name = filepath.Join(m.boundary, filepath.FromSlash(m.prefix), name)
	}
	var data []byte
	var err error
	if cfg.fromRepo {
		rel, ok := inside(name, m.boundary)
		if !ok {
			return nil, ""
		}
		data, err = readIn(lr, rel)
	} else if name != "" {
		data, err = readFile(name)
	}
	if err != nil || data == nil {
		return nil, name
	}
	return parse(data, "", name), name
}
