package roots

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ClientRoot is a root as a client announces it (roots/list).
type ClientRoot struct {
	URI  string
	Name string
}

// Set holds the operator's ceiling and the client's session roots. It is safe
// for concurrent use; roots may change while requests run, and each request
// works on the [Scope] it took.
type Set struct {
	logger  *slog.Logger
	ceiling []*entry // fixed at construction

	mu      sync.Mutex          // guards the fields below
	session *Scope              // effective roots of the session; nil until the client sent roots
	dropped []string            // client roots the last narrowing refused
	handles map[string]*os.Root // opened client-root directories by real path; never closed while in use
}

// entry is a Root with its opened directory.
type entry struct {
	Root
	alias string   // the path as configured, when it differs from Path (a symlinked root)
	fs    *os.Root // the directory; for a single-file root, its parent
}

// NewSet resolves the operator's roots (paths or file:// URIs). Each must
// exist; its real path is resolved once, here. No roots is valid: then client
// roots alone are the scope.
func NewSet(ceiling []string, logger *slog.Logger) (*Set, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Set{logger: logger, handles: make(map[string]*os.Root)}
	for _, arg := range ceiling {
		e, err := openRoot(arg, Flag, "")
		if err != nil {
			return nil, err
		}
		s.ceiling = appendUnique(s.ceiling, e)
	}
	return s, nil
}

// openRoot resolves and opens a root given as a path or URI.
func openRoot(arg string, src Source, name string) (*entry, error) {
	path, err := rootPath(arg)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, fmt.Errorf("root %q: %w", arg, cleanFSErr(err))
	}
	info, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("root %q: %w", arg, cleanFSErr(err))
	}
	e := &entry{Root: Root{URI: URI(real), Path: real, Name: name, Source: src}}
	if path != real {
		e.alias = path
	}
	if e.Name == "" {
		e.Name = filepath.Base(real)
	}
	dir := real
	switch {
	case info.IsDir():
	case info.Mode().IsRegular():
		e.File = true
		dir = filepath.Dir(real)
	default:
		return nil, fmt.Errorf("root %q: %w", arg, ErrNotRegular)
	}
	if e.fs, err = os.OpenRoot(dir); err != nil {
		return nil, fmt.Errorf("root %q: %w", arg, cleanFSErr(err))
	}
	return e, nil
}

// rootPath turns a --root value or client URI into an absolute clean path.
func rootPath(arg string) (string, error) {
	if IsURI(arg) {
		return Parse(arg)
	}
	if arg == "" || strings.ContainsRune(arg, 0) {
		return "", fmt.Errorf("invalid root %q", arg)
	}
	return filepath.Abs(arg)
}

func cleanFSErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Ceiling returns the operator's roots alone.
func (s *Set) Ceiling() *Scope { return newScope(s.ceiling) }

// Scope returns the roots in force for the session: the ceiling narrowed by
// the client's roots, once the client has sent some.
func (s *Set) Scope() *Scope {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session != nil {
		return s.session
	}
	return newScope(s.ceiling)
}

// SetClient records the session's client roots (legacy roots/list) and returns
// the scope now in force.
func (s *Set) SetClient(client []ClientRoot) *Scope {
	sc, dropped := s.narrow(client)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.session, s.dropped = sc, dropped
	return sc
}

// Dropped returns the client roots the last [Set.SetClient] refused, and why.
func (s *Set) Dropped() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.dropped...)
}

// Narrow returns the scope for one request whose client sent roots with it
// (the modern protocol's per-request roots), and the client roots it
// refused, and why, as [Set.Dropped] says them for the session. The session
// is unchanged.
func (s *Set) Narrow(client []ClientRoot) (*Scope, []string) {
	return s.narrow(client)
}

// narrow applies the policy: without a ceiling, client roots are the scope
// (but never a filesystem root); with one, each client root is intersected
// with it, and one outside every ceiling root is dropped. An empty client
// list narrows nothing.
func (s *Set) narrow(client []ClientRoot) (*Scope, []string) {
	if len(client) == 0 {
		return newScope(s.ceiling), nil
	}
	var out []*entry
	var dropped []string
	for _, c := range client {
		es, err := s.intersect(c)
		if err != nil {
			s.logger.Warn("client root ignored", "uri", c.URI, "reason", err)
			dropped = append(dropped, fmt.Sprintf("%s (%v)", c.URI, err))
			continue
		}
		for _, e := range es {
			out = appendUnique(out, e)
		}
	}
	return newScope(out), dropped
}

var errOutsideCeiling = errors.New("not inside any --root directory, or missing")

// intersect returns the entries a client root grants within the ceiling.
func (s *Set) intersect(c ClientRoot) ([]*entry, error) {
	if windowsGrammar && !IsURI(c.URI) {
		if err := CheckWindowsPath(c.URI); err != nil {
			return nil, err // URIs are checked by Parse
		}
	}
	path, err := rootPath(c.URI)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil && len(s.ceiling) > 0 {
		// Not "does not exist": that, against "outside" for a path that
		// exists, would tell the client what lies outside the ceiling.
		return nil, errOutsideCeiling
	}
	if err != nil {
		return nil, errors.New("does not exist")
	}
	if len(s.ceiling) == 0 && (filepath.Dir(path) == path || filepath.Dir(real) == real) {
		return nil, errors.New("a filesystem root is allowed only when the operator passes it with --root")
	}
	if len(s.ceiling) == 0 {
		e, err := s.clientEntry(c, path, real, nil)
		if err != nil {
			return nil, err
		}
		return []*entry{e}, nil
	}
	var out []*entry
	for _, f := range s.ceiling {
		if f.File {
			if within(f.Path, real) {
				out = append(out, f)
			}
			continue
		}
		if _, ok := relTo(real, f.Path); ok {
			e, err := s.clientEntry(c, path, real, f)
			if err != nil {
				return nil, err
			}
			return []*entry{e}, nil
		}
		if within(f.Path, real) { // the client root holds a whole ceiling root
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, errOutsideCeiling
	}
	return out, nil
}

// within reports whether path lies in or at dir.
func within(path, dir string) bool {
	_, ok := relTo(path, dir)
	return ok
}

// clientEntry opens the client root at real; inside the ceiling root f when
// there is one, so the directory opened cannot lie outside it.
func (s *Set) clientEntry(c ClientRoot, path, real string, f *entry) (*entry, error) {
	info, err := os.Stat(real)
	if err != nil {
		return nil, errors.New("does not exist")
	}
	name := c.Name
	if name == "" {
		name = filepath.Base(real)
	}
	e := &entry{Root: Root{URI: URI(real), Path: real, Name: name, Source: Client}}
	if path != real {
		e.alias = path // the client keeps using the URIs it announced
	}
	dir := real
	if !info.IsDir() {
		if !info.Mode().IsRegular() {
			return nil, ErrNotRegular
		}
		e.File, dir = true, filepath.Dir(real)
	}
	if e.fs, err = s.handle(dir, f); err != nil {
		return nil, err
	}
	return e, nil
}

// handle opens dir once and keeps it: scopes taken earlier may still use it.
func (s *Set) handle(dir string, f *entry) (*os.Root, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h, ok := s.handles[dir]; ok && sameDir(h, dir) {
		return h, nil
	}
	var h *os.Root
	var err error
	if f == nil {
		h, err = os.OpenRoot(dir)
	} else if rel, _ := relTo(dir, f.Path); rel == "." {
		h = f.fs
	} else {
		h, err = f.fs.OpenRoot(filepath.FromSlash(rel))
	}
	if err != nil {
		return nil, errors.New("cannot be opened")
	}
	s.handles[dir] = h
	return h, nil
}

// sameDir reports whether h is still the directory at dir: one moved away
// (perhaps out of the ceiling) or replaced must not be reused.
func sameDir(h *os.Root, dir string) bool {
	hi, err := h.Stat(".")
	if err != nil {
		return false
	}
	di, err := os.Lstat(dir)
	return err == nil && os.SameFile(hi, di)
}

func appendUnique(es []*entry, e *entry) []*entry {
	for i, x := range es {
		if x.Path == e.Path {
			if x.alias == "" && e.alias != "" { // the same root announced through a symlink too
				c := *x
				c.alias = e.alias
				es[i] = &c
			}
			return es
		}
	}
	return append(es, e)
}
