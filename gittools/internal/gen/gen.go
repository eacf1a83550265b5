// Package gen generates git repositories of a chosen shape for grove's tests and benchmarks, with go-git
// plumbing only (no git program): a worktree, a packed history and an index with real stat data.
//
//	info, err := gen.Repo(dir, gen.Options{Files: 5000, Commits: 300})
//	// info.HotPath changes every 10th commit; info.RarePath only in the first commit
package gen

import (
	"fmt"
	"math/rand/v2"
	"path"
	"sort"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Options shape a generated repository. Zero fields take the defaults in brackets.
type Options struct {
	Files          int    // tracked files [1000]
	FilesPerDir    int    // files per directory; directories nest two levels [50]
	Lines          int    // lines per file [40]
	Commits        int    // commits, the first adding every file [100]
	FilesPerCommit int    // files changed by each later commit [3]
	MergeEvery     int    // every n-th commit is a merge of a one-commit side branch; 0 = never
	Seed           uint64 // random seed [1]
	NoDeltas       bool   // pack without deltas (much faster to generate, larger pack)
}

// Info describes what Repo made.
type Info struct {
	Head     plumbing.Hash
	Paths    []string // every tracked path, sorted
	HotPath  string   // changed by every 10th commit
	RarePath string   // changed only by the first commit
}

func (o *Options) defaults() {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.Files, 1000)
	def(&o.FilesPerDir, 50)
	def(&o.Lines, 40)
	def(&o.Commits, 100)
	def(&o.FilesPerCommit, 3)
	if o.Seed == 0 {
		o.Seed = 1
	}
}

// Repo creates a repository with a checked-out worktree in dir (which must be empty or missing).
func Repo(dir string, o Options) (Info, error) {
	o.defaults()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		return Info{}, err
	}
	mem := memory.NewStorage()
	g := &generator{st: mem, rnd: rand.New(rand.NewPCG(o.Seed, 2)), opts: o, files: map[string]string{},
		blobs: map[string]plumbing.Hash{}, dirty: map[string]bool{}, trees: map[string]plumbing.Hash{},
		when: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	info := Info{Paths: g.layout()}
	info.HotPath, info.RarePath = info.Paths[len(info.Paths)/2], info.Paths[len(info.Paths)-1]
	head, err := g.history(info)
	if err != nil {
		return info, err
	}
	info.Head = head
	if err := r.Storer.SetReference(plumbing.NewHashReference("refs/heads/master", head)); err != nil {
		return info, err
	}
	if err := writePack(r, mem, o.NoDeltas); err != nil {
		return info, fmt.Errorf("writing the pack: %w", err)
	}
	return info, checkout(dir, r, g.files)
}

type generator struct {
	st    storage.Storer
	rnd   *rand.Rand
	opts  Options
	files map[string]string // path -> content at the tip
	when  time.Time

	// incremental tree writing: the layout never changes, so only dirty files and their directories are rewritten
	blobs    map[string]plumbing.Hash
	dirty    map[string]bool // paths changed since the last commit (all at first)
	children map[string]map[string]object.TreeEntry
	trees    map[string]plumbing.Hash
}

// layout names the files: d00/s00/f0000.txt …
func (g *generator) layout() []string {
	var ps []string
	per := g.opts.FilesPerDir
	for i := range g.opts.Files {
		d := i / per
		p := fmt.Sprintf("d%02d/s%02d/f%05d.txt", d/per, d%per, i)
		ps = append(ps, p)
		g.files[p] = g.content(p, 0)
		g.dirty[p] = true
	}
	sort.Strings(ps)
	return ps
}

func (g *generator) content(p string, rev int) string {
	var b []byte
	for l := range g.opts.Lines {
		b = fmt.Appendf(b, "%s line %d rev %d %x\n", path.Base(p), l, rev*(l%7), g.rnd.Uint32())
	}
	return string(b)
}

// history writes the commits and returns the tip.
func (g *generator) history(info Info) (plumbing.Hash, error) {
	tip, err := g.commit("initial", nil)
	if err != nil {
		return tip, err
	}
	for i := 1; i < g.opts.Commits; i++ {
		parents := []plumbing.Hash{tip}
		if g.opts.MergeEvery > 0 && i%g.opts.MergeEvery == 0 {
			g.edit(info, i, false)
			side, err := g.commit(fmt.Sprintf("side %d", i), []plumbing.Hash{tip})
			if err != nil {
				return tip, err
			}
			parents = append(parents, side)
		}
		g.edit(info, i, i%10 == 0)
		if tip, err = g.commit(fmt.Sprintf("commit %d", i), parents); err != nil {
			return tip, err
		}
	}
	return tip, nil
}

// edit changes FilesPerCommit random files (never RarePath), and HotPath when hot.
func (g *generator) edit(info Info, rev int, hot bool) {
	for range g.opts.FilesPerCommit {
		p := info.Paths[g.rnd.IntN(len(info.Paths)-1)]
		g.files[p] = g.content(p, rev)
		g.dirty[p] = true
	}
	if hot {
		g.files[info.HotPath] = g.content(info.HotPath, rev)
		g.dirty[info.HotPath] = true
	}
}

// commit stores the current files as a commit.
func (g *generator) commit(msg string, parents []plumbing.Hash) (plumbing.Hash, error) {
	tree, err := g.tree()
	if err != nil {
		return tree, err
	}
	g.when = g.when.Add(time.Minute)
	sig := object.Signature{Name: "Gen Erator", Email: "gen@example.com", When: g.when}
	c := &object.Commit{Author: sig, Committer: sig, Message: msg + "\n", TreeHash: tree, ParentHashes: parents}
	return g.store(c)
}

type encodable interface {
	Encode(plumbing.EncodedObject) error
}

func (g *generator) store(o encodable) (plumbing.Hash, error) {
	eo := g.st.NewEncodedObject()
	if err := o.Encode(eo); err != nil {
		return plumbing.ZeroHash, err
	}
	return g.st.SetEncodedObject(eo)
}

// tree writes the dirty blobs and the trees above them.
func (g *generator) tree() (plumbing.Hash, error) {
	first := g.children == nil
	if first {
		g.children = map[string]map[string]object.TreeEntry{"": {}}
	}
	dirtyDirs := map[string]bool{"": true}
	for p := range g.dirty {
		blob := g.st.NewEncodedObject()
		blob.SetType(plumbing.BlobObject)
		w, _ := blob.Writer()
		w.Write([]byte(g.files[p]))
		w.Close()
		h, err := g.st.SetEncodedObject(blob)
		if err != nil {
			return h, err
		}
		g.blobs[p] = h
		if first {
			addEntry(g.children, p, object.TreeEntry{Name: path.Base(p), Mode: filemode.Regular})
		}
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			dirtyDirs[d] = true
		}
	}
	clear(g.dirty)
	return g.writeTree("", dirtyDirs)
}

func addEntry(children map[string]map[string]object.TreeEntry, p string, e object.TreeEntry) {
	dir := path.Dir(p)
	if dir == "." {
		dir = ""
	}
	if _, ok := children[dir]; !ok {
		children[dir] = map[string]object.TreeEntry{}
		addEntry(children, dir, object.TreeEntry{Name: path.Base(dir), Mode: filemode.Dir})
	}
	children[dir][e.Name] = e
}

func (g *generator) writeTree(dir string, dirty map[string]bool) (plumbing.Hash, error) {
	if h, ok := g.trees[dir]; ok && !dirty[dir] {
		return h, nil
	}
	var t object.Tree
	for name, e := range g.children[dir] {
		full := path.Join(dir, name)
		if e.Mode == filemode.Dir {
			h, err := g.writeTree(full, dirty)
			if err != nil {
				return h, err
			}
			e.Hash = h
		} else {
			e.Hash = g.blobs[full]
		}
		t.Entries = append(t.Entries, e)
	}
	sort.Slice(t.Entries, func(i, j int) bool { return treeName(t.Entries[i]) < treeName(t.Entries[j]) })
	h, err := g.store(&t)
	g.trees[dir] = h
	return h, err
}

func treeName(e object.TreeEntry) string {
	if e.Mode == filemode.Dir {
		return e.Name + "/"
	}
	return e.Name
}
