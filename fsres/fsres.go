// Package fsres serves the files under grove's roots: as MCP resources
// (resources/list, the file:///{+path} template, completion of its path) and
// through file tools (read_file, grep, write_file, …).
//
// Every path a client sends is resolved by [roots.Scope] and every byte is read
// or written through [os.Root], so nothing outside the roots is touched, and a
// path outside the roots reads exactly like a missing one. Listings, searches
// and trees honour .gitignore through package ignore.
//
//	files := fsres.New(fsres.Options{Scope: provider})
//	files.Register(server) // template + tools
//	server.AddReceivingMiddleware(…) // route resources/list to files.ListResources
//
// # Choices
//
//   - resources/list and walks order paths lexically by segment, the order a
//     directory walk gives ("a/b" before "a-c"). Its cursor is base64url of
//     {root index, hash of the root URI, last path} with a 128-bit HMAC under
//     a per-process key; a forged, garbled or stale cursor gets -32602.
//   - Reading a directory resource returns one text content with mimeType
//     inode/directory: its non-ignored entries, one a line, directories first
//     and with a trailing "/".
//   - A missing resource and one outside the roots (a symlink out of them
//     included) both get [ResourceNotFound]: -32602 in both protocol eras with
//     go-sdk v1.8.0 (the server gives legacy sessions -32002). resources/read,
//     subscribe and unsubscribe resolve a URI with [ResolveResource] alike.
//     FIFOs, sockets and devices, and files above MaxReadBytes, get -32602 with
//     a message saying why.
//   - list_directory puts directories first, then files, each group sorted by
//     name; entries ignored by .gitignore and .git are left out and counted.
//   - Tool results name paths inside the roots absolutely, search and grep
//     results relative to the directory searched; error texts name only what
//     the client sent.
//
// # Parts
//
// The package keeps the MCP side (resources, tools, cursors, the walks and
// their caches). Below it, internal packages each own one mechanism: grep
// and trigram (content search and its index), glob, media (images and
// audio), dirent (a directory's entries, not following symlinks), dirstream (a huge
// directory read as a resumable stream, for resources/list pages) and stamp
// (whether a file or directory changed since a cached page was built).
package fsres

import (
	"context"
	"crypto/rand"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/grove-mcp/grove/fsres/internal/grep"
	"github.com/grove-mcp/grove/fsres/internal/media"
	"github.com/grove-mcp/grove/fsres/internal/stamp"
	"github.com/grove-mcp/grove/fsres/internal/trigram"
	"github.com/grove-mcp/grove/ignore"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	defaultMaxReadBytes = 10 << 20
	defaultPageSize     = 500
)

// Options configures [New]. The zero value of each field means its default.
type Options struct {
	Scope        scope.Provider
	ReadOnly     bool         // leave out write_file, edit_file, create_directory, move_file
	MaxReadBytes int64        // largest file read or searched; default 10 MiB
	PageSize     int          // resources/list page size; default 500
	Logger       *slog.Logger // nil discards

	// MaxMediaBytes is the largest image or audio file read_file and
	// read_files send as such; larger ones are described. Zero means 5 MiB,
	// a negative value sends none.
	MaxMediaBytes int64
}

// Files serves files under the roots of each request's scope.
type Files struct {
	opts Options
	log  *slog.Logger
	key  []byte // signs resources/list cursors; random per process

	mu       sync.Mutex                 // guards matchers, rules and kept
	matchers map[string]*ignore.Matcher // by root path
	rules    map[string]stamp.Stamp     // rule files streamed listings rely on, by root path and name (see freshRules)
	kept     map[string]*os.Root        // the handles grep keeps texts for (keepTexts), by root path

	pages segments // of recent resources/list walks

	grams *trigram.Indexes // grep's trigram indexes; nil until SetChanges
}

// New returns a Files. It panics when opts.Scope is nil (a programmer error).
func New(opts Options) *Files {
	if opts.Scope == nil {
		panic("fsres: Options.Scope is nil")
	}
	if opts.MaxReadBytes <= 0 {
		opts.MaxReadBytes = defaultMaxReadBytes
	}
	if opts.MaxMediaBytes == 0 {
		opts.MaxMediaBytes = media.DefaultMaxBytes
	}
	opts.MaxMediaBytes = min(opts.MaxMediaBytes, opts.MaxReadBytes) // a file sent is a file read

	if opts.PageSize <= 0 {
		opts.PageSize = defaultPageSize
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	key := make([]byte, 32)
	rand.Read(key) // never fails (crypto/rand, Go 1.24+)
	return &Files{opts: opts, log: log, key: key, matchers: make(map[string]*ignore.Matcher)}
}

// Register adds the file:///{+path} resource template and the file tools to s.
// Write tools are added only when the Files is not read-only.
func (f *Files) Register(s *mcp.Server) {
	f.RegisterTemplate(s)
	f.RegisterTools(s)
}

// RegisterTemplate adds the file:///{+path} resource template to s.
func (f *Files) RegisterTemplate(s *mcp.Server) { f.addTemplate(s) }

// RegisterTools adds the file tools to s; write tools only when the Files is
// not read-only. Inferring their schemas is most of their cost, so a server
// may do it after its start-up (see server's lazyTools).
func (f *Files) RegisterTools(s *mcp.Server) {
	f.registerReadTools(s)
	if !f.opts.ReadOnly {
		f.registerWriteTools(s)
	}
}

// Invalidate tells f that .gitignore rules or the git index under dir may have
// changed, so the matchers of the roots containing dir (or inside it) drop
// their caches, and resources/list walks of them their segments.
func (f *Files) Invalidate(dir string) {
	dir = filepath.Clean(dir)
	f.pages.dropUnder(dir)
	f.mu.Lock()
	defer f.mu.Unlock()
	for root, m := range f.matchers {
		if within(dir, root) || within(root, dir) {
			m.Invalidate()
		}
	}
}

// within reports whether path is dir or lies below it (both clean, absolute).
func within(path, dir string) bool {
	if path == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(path, dir)
}

// matcher returns the (cached) ignore matcher of a directory root.
func (f *Files) matcher(r roots.Root) (*ignore.Matcher, error) {
	if r.File {
		return nil, errors.New("a single-file root has no tree")
	}
	f.mu.Lock()
	m, ok := f.matchers[r.Path]
	f.mu.Unlock()
	if ok {
		return m, nil
	}
	// Built outside the lock: it may read a large git index.
	m, err := ignore.New(r.Path)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if old, ok := f.matchers[r.Path]; ok {
		return old, nil
	}
	f.matchers[r.Path] = m
	return m, nil
}

// Matcher returns the .gitignore matcher of the directory root r: built once
// per root and shared by listing, search, watching and whoever else asks, so
// that they all hide the same files.
func (f *Files) Matcher(r roots.Root) (*ignore.Matcher, error) { return f.matcher(r) }

// MIMEType is the type resources/read gives a file called name whose content
// starts with head; text says whether the content is UTF-8 text.
func (f *Files) MIMEType(name string, head []byte, text bool) string {
	return detectMIME(name, head, text)
}

// The server's hooks into fsres for change notifications.

// resourceTemplate is the one resource template: every file under the roots.
var resourceTemplate = &mcp.ResourceTemplate{
	URITemplate: "file:///{+path}",
	Name:        "file",
	Title:       "Files under the roots",
	Description: "A file or directory inside one of the roots. Directories read as a listing (inode/directory).",
}

func (f *Files) addTemplate(s *mcp.Server) {
	s.AddResourceTemplate(resourceTemplate, scope.Resource(f.opts.Scope, f.read))
}

// ListChanged sends notifications/resources/list_changed to s's sessions.
// The SDK has no call for it: adding the template again sends it, and the
// SDK coalesces bursts of them into one.
func (f *Files) ListChanged(s *mcp.Server) { f.addTemplate(s) }

// Ignored reports whether abs, inside sc, is excluded by .gitignore rules,
// with the matchers that listing and search use.
func (f *Files) Ignored(sc *roots.Scope, abs string, isDir bool) bool {
	loc, ok := sc.Locate(abs)
	if !ok || loc.Root.File || loc.Rel == "." {
		return false
	}
	m, err := f.matcher(loc.Root)
	if err != nil {
		return false
	}
	return m.Ignored(loc.Rel, isDir)
}

// DirChanges is a file watcher's feed of the changes below one directory (the server adapts
// watch.Feed): Sync returns the absolute paths with an event since the previous Sync, every change
// made before the call included, or lost when events may have been missed; Cover makes sure
// directories are watched and reports whether all of them were.
type DirChanges interface {
	Sync(ctx context.Context) (paths []string, lost bool, err error)
	Cover(dirs []string) bool
	Close()
}

// SetChanges gives grep the watcher's feeds: with them it keeps a trigram index of each root it
// searches (see package fsres/internal/trigram), built in the background after the root's first
// grep, and later greps read only the files that can match. Call it once, before serving.
func (f *Files) SetChanges(watch func(dir string) DirChanges) {
	f.grams = trigram.NewIndexes(trigram.Options{
		Watch:  func(dir string) trigram.Feed { return keptFeed{watch(dir), f, dir} },
		Logger: f.log.With("index", "trigram"),
	})
}

// Close stops the background work of f (index builds) and drops its indexes.
func (f *Files) Close() error {
	if f.grams != nil {
		f.grams.Close()
	}
	return nil
}

// useIndex lets a grep of the directory base use its root's trigram index: the files it lists
// (the walk's files, kept current by the watcher) replace the walk, and the files it rules out are
// not read. It leaves req and tree alone when the index cannot narrow the search or is not ready
// (the first call starts its build).
func (f *Files) useIndex(ctx context.Context, base roots.Loc, single bool, keep func(string) bool, req *grep.Request, tree *grep.Tree) error {
	if f.grams == nil || single || base.Root.File {
		return nil
	}
	q := trigram.PlanSyntax(req.Pattern.Syntax)
	if q.All() {
		f.grams.Touch(base.Root.Path) // a grep all the same: the index is not idle
		return nil
	}
	m, err := f.matcher(base.Root)
	if err != nil {
		return nil
	}
	c, err := f.grams.Search(ctx, base.Root.Path, trigram.DirTree{FS: base.FS(), Matcher: m, MaxRead: f.opts.MaxReadBytes}, q)
	if c == nil || err != nil {
		f.keepTexts(base.Root.Path, base.FS(), 0)
		return err
	}
	text, index := c.Sizes()
	f.keepTexts(base.Root.Path, base.FS(), text/2-index)
	// The index's Sync has just told grep.Forget every change made before the call (keptFeed), and
	// the walk below is the index's, whose directories the feed covers.
	synced := grep.Synced(base.FS(), base.Rel)
	tree.NewOpener = func() grep.Opener { return hookedOpener{synced()} }
	prefix := ""
	if base.Rel != "." {
		prefix = base.Rel + "/"
	}
	// The walk knows whether each file it visits may match: Candidate, which the search asks right
	// after the visit, on the walk's goroutine, answers from that for the file just visited.
	var last string
	var lastMay bool
	req.Candidate = func(rel string) bool {
		if rel == last {
			return lastMay
		}
		return c.May(prefix + rel)
	}
	tree.Walk = func(ctx context.Context, visit func(string) error) error {
		return c.WalkMay(base.Rel, func(p string, may bool) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			rel := p[len(prefix):]
			if keep != nil && !keep(rel) {
				return nil
			}
			last, lastMay = rel, may
			return visit(rel)
		})
	}
	return nil
}

// keepTexts lets grep keep texts of root's files (grep.KeepTexts) up to budget: what the root's
// trigram index leaves of half the text it indexes, the bound of the index's memory, so that the
// index and the texts together stay within it; none while there is no index. A handle the root
// had before (its roots changed) keeps nothing more.
func (f *Files) keepTexts(root string, fsys *os.Root, budget int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if old := f.kept[root]; old != nil && old != fsys {
		grep.KeepTexts(old, 0)
	}
	if f.kept == nil {
		f.kept = make(map[string]*os.Root)
	}
	f.kept[root] = fsys
	grep.KeepTexts(fsys, max(budget, 0))
}

// keptFeed is the trigram index's feed of a root's changes, which also tells grep to forget the kept
// texts of the paths changed: a later search may then use the others as they are (grep.Synced).
type keptFeed struct {
	DirChanges
	f    *Files
	root string
}

func (k keptFeed) Sync(ctx context.Context) ([]string, bool, error) {
	paths, lost, err := k.DirChanges.Sync(ctx)
	if err == nil && (lost || len(paths) > 0) {
		k.f.forgetKept(k.root, paths, lost)
	}
	return paths, lost, err
}

// forgetKept drops grep's kept texts of root at the absolute paths changed and below them, or all of
// them.
func (f *Files) forgetKept(root string, paths []string, all bool) {
	f.mu.Lock()
	fsys := f.kept[root]
	f.mu.Unlock()
	rels := make([]string, 0, len(paths))
	for _, p := range paths {
		rel, ok := strings.CutPrefix(p, root+string(filepath.Separator))
		if !ok {
			all = true // the root itself, or a path not below it: nothing can be vouched for
			break
		}
		rels = append(rels, filepath.ToSlash(rel))
	}
	grep.Forget(fsys, rels, all) // with no texts kept (fsys nil) it still stops texts being read now from being kept
}

// keptBytes returns the memory grep's kept texts of root hold.
func (f *Files) keptBytes(root string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fsys := f.kept[root]; fsys != nil {
		return grep.KeptBytes(fsys)
	}
	return 0
}

// WaitGrepIndex waits until the trigram index of the directory root is ready, or its build ended
// without one, or ctx ends; it reports whether the index is ready. For tests and benchmarks.
func (f *Files) WaitGrepIndex(ctx context.Context, root string) bool {
	return f.grams != nil && f.grams.Wait(ctx, root)
}

// GrepIndex describes the trigram index grep keeps for one root.
type GrepIndex struct {
	State     string        `json:"state" jsonschema:"ready, building, stale, or why there is none (a memory cap)"`
	Files     int           `json:"files,omitempty" jsonschema:"text files indexed"`
	Skipped   int           `json:"skipped,omitempty" jsonschema:"binary files and files above the size limit, not indexed"`
	TextBytes int64         `json:"text_bytes,omitempty" jsonschema:"bytes of the text indexed"`
	Bytes     int64         `json:"bytes,omitempty" jsonschema:"memory the index holds"`
	KeptBytes int64         `json:"kept_bytes,omitempty" jsonschema:"memory holding texts of small files for later searches; with bytes, at most half of text_bytes"`
	BuildTime time.Duration `json:"-"`
}

// GrepIndexes returns the trigram indexes grep keeps, by root path.
func (f *Files) GrepIndexes() map[string]GrepIndex {
	if f.grams == nil {
		return nil
	}
	out := map[string]GrepIndex{}
	for _, st := range f.grams.Stats() {
		out[st.Root] = GrepIndex{State: st.State, Files: st.Files, Skipped: st.Skipped, TextBytes: st.TextBytes,
			Bytes: st.Bytes, KeptBytes: f.keptBytes(st.Root), BuildTime: st.BuildTime}
	}
	return out
}
