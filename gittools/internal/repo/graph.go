package repo

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing"
	commitgraph "github.com/go-git/go-git/v5/plumbing/format/commitgraph/v2"
	"github.com/go-git/go-git/v5/plumbing/object"
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
