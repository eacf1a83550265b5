package repo

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	commitgraph "github.com/go-git/go-git/v5/plumbing/format/commitgraph/v2"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// graphFile is the repository's .git/objects/info/commit-graph, read into memory: parents, root tree and
// Commit time of a commit without inflating and decoding it (GIT-PERFORMANCE §6.2). Commits newer than the
// file are simply not in it. Split graphs (objects/info/commit-graphs/) are not read: those commits are decoded.
type graphFile struct {
	idx   commitgraph.Index
	stamp fileStamp
}

// CommitGraph is where a log walk takes commits from (see walker.commit): the decoded-commit cache first, then
// the commit-graph file, then the object store (decoded once and cached). The walk needs only parents, root
// tree and commit time; the commits it shows are completed from the cache.
type CommitGraph struct {
	rp   *Repo
	file *graphFile // nil: no usable commit-graph
}

// WalkGraph returns the commit source of a log walk. Caller holds rp.mu for the whole walk.
func (rp *Repo) WalkGraph() *CommitGraph {
	return &CommitGraph{rp: rp, file: rp.CommitGraph()}
}

// Commit returns h for the walker: fully decoded if cached, else partial from the graph file, else decoded
// (and cached). false makes the walker read h itself, which reports the error (a shallow boundary, say).
func (g *CommitGraph) Commit(h plumbing.Hash) (*object.Commit, bool) {
	if e := g.rp.commits.Get(h); e != nil {
		return e.C, true
	}
	if g.file != nil {
		if c, ok := g.file.commit(h); ok {
			return c, true
		}
	}
	e, err := g.rp.CachedCommit(h)
	if err != nil {
		return nil, false
	}
	return e.C, true
}

// maxGraphFile bounds the commit-graph read into memory (about 72 bytes per commit: 900k commits).
const maxGraphFile = 64 << 20

const graphPath = "objects/info/commit-graph"

// CommitGraph returns the repository's commit-graph file, or nil when it has none (or an unreadable one), re-read
// when the file changes. Caller holds rp.mu.
func (rp *Repo) CommitGraph() *graphFile {
	st := statStamp(rp.dirs.common.root, filepath.FromSlash(graphPath))
	if rp.graph != nil && rp.graph.stamp == st {
		return rp.graph
	}
	rp.graph = nil
	if st == (fileStamp{}) || st.mtime == -1 || st == rp.badGraph || rp.SHA256() { // go-git reads SHA-1 graphs only
		return nil
	}
	idx, err := openGraph(rp.dirs.common.root)
	if err != nil {
		// Walks fall back to decoding commits; the client hears of it once per version of the file.
		rp.badGraph = st
		rp.Noted(&gitfmt.RefusedFile{File: ".git/" + graphPath, Reason: "it is corrupt or too large; commits are read without it"})
		return nil
	}
	rp.graph = &graphFile{idx: idx, stamp: st}
	return rp.graph
}

// openGraph reads the commit-graph through an os.Root (gitfmt.OpenRegular), so a symlinked file cannot lead outside the git dir.
// go-git's parser is not hardened against corrupt files: a panic in it means no graph.
func openGraph(commonDir *os.Root) (_ commitgraph.Index, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: corrupt: %v", graphPath, p)
		}
	}()
	f, err := gitfmt.OpenRegular(commonDir, filepath.FromSlash(graphPath))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxGraphFile {
		return nil, fmt.Errorf("%s: not a regular file of at most %d bytes", graphPath, maxGraphFile)
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("%s: %w", graphPath, err)
	}
	return commitgraph.OpenFileIndex(memFile{bytes.NewReader(data)})
}

// memFile is an in-memory ReaderAtCloser: the graph is read with many small ReadAt calls, one syscall each on a file.
type memFile struct{ *bytes.Reader }

func (memFile) Close() error { return nil }

// Commit returns a partial commit for h, with only Hash, TreeHash, ParentHashes and Committer.When set, or
// false when h is not in the graph.
func (g *graphFile) commit(h plumbing.Hash) (_ *object.Commit, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false // a corrupt graph: the walker decodes the commit instead
		}
	}()
	i, err := g.idx.GetIndexByHash(h)
	if err != nil {
		return nil, false
	}
	d, err := g.idx.GetCommitDataByIndex(i)
	if err != nil {
		return nil, false
	}
	return &object.Commit{Hash: h, TreeHash: d.TreeHash, ParentHashes: d.ParentHashes,
		Committer: object.Signature{When: d.When}}, true
}

// CommitCache keeps decoded commits by hash across calls, so that a repeated log (the common case: an agent
// asks for the latest commits again and again) neither inflates nor parses them again. A commit's content is
// fixed by its hash, so an entry never goes stale. Two generations bound it: when the current one is full it
// becomes the old one and the previous old one is dropped; a hit in the old one moves the entry forward.
// The cache belongs to a repo and is guarded by its mutex.
type CommitCache struct {
	Cur, Old map[plumbing.Hash]*CachedCommit
	curBytes int // approximate size of cur's commits
}

// CachedCommit is a decoded commit and, once built, its summary.
type CachedCommit struct {
	C    *object.Commit
	info *CommitInfo // nil until first summarised
}

// A generation holds at most commitCacheGen commits and about commitCacheGenBytes of them: the cache stays
// under ~10 MB whatever the messages (a log of 1,000 commits, the most one call returns, fits in one).
const (
	CommitCacheGen      = 4096
	commitCacheGenBytes = 4 << 20
	commitOverhead      = 512 // bytes of a decoded commit and its summary besides the message
)

// maxCachedMessage keeps commits with huge messages out of the cache.
const maxCachedMessage = 16 << 10

func (cc *CommitCache) Get(h plumbing.Hash) *CachedCommit {
	if e, ok := cc.Cur[h]; ok {
		return e
	}
	if e, ok := cc.Old[h]; ok {
		cc.Put(e)
		return e
	}
	return nil
}

func (cc *CommitCache) Put(e *CachedCommit) {
	size := commitOverhead + len(e.C.Message)
	if len(cc.Cur) >= CommitCacheGen || cc.curBytes+size > commitCacheGenBytes {
		cc.Old, cc.Cur, cc.curBytes = cc.Cur, nil, 0
	}
	cc.curBytes += size
	if cc.Cur == nil {
		cc.Cur = make(map[plumbing.Hash]*CachedCommit)
	}
	cc.Cur[e.C.Hash] = e
}

// CachedCommit returns the decoded commit h, from the cache or read and cached.
func (rp *Repo) CachedCommit(h plumbing.Hash) (*CachedCommit, error) {
	if e := rp.commits.Get(h); e != nil {
		return e, nil
	}
	c, err := rp.Git.CommitObject(h)
	if err != nil {
		return nil, err
	}
	return rp.remember(c), nil
}

// remember caches a fully decoded commit (when its message is not too large) and returns its entry.
func (rp *Repo) remember(c *object.Commit) *CachedCommit {
	e := &CachedCommit{C: c}
	if len(c.Message) <= maxCachedMessage {
		rp.commits.Put(e)
	}
	return e
}

// Summary returns the commit's CommitInfo, built once per entry. Callers must not modify it.
func (e *CachedCommit) Summary() CommitInfo {
	if e.info == nil {
		ci := NewCommitInfo(e.C)
		e.info = &ci
	}
	return *e.info
}

// NewCommitInfo summarises c.
func NewCommitInfo(c *object.Commit) CommitInfo {
	ci := CommitInfo{
		Hash: c.Hash.String(), Author: c.Author.Name, Email: c.Author.Email,
		Date: c.Author.When.Format(time.RFC3339), Subject: FirstLineOf(c.Message),
	}
	if len(c.ParentHashes) > 0 {
		ci.Parents = make([]string, len(c.ParentHashes))
		for i, p := range c.ParentHashes {
			ci.Parents[i] = p.String()
		}
	}
	return ci
}

// CommitInfo summarises one commit.
type CommitInfo struct {
	Hash    string   `json:"hash"`
	Author  string   `json:"author"`
	Email   string   `json:"email"`
	Date    string   `json:"date" jsonschema:"author date, RFC 3339"`
	Subject string   `json:"subject"`
	Parents []string `json:"parents,omitempty"`
}

func FirstLineOf(s string) string {
	line, _, _ := strings.Cut(strings.TrimLeft(s, "\n"), "\n")
	return strings.TrimSpace(line)
}
