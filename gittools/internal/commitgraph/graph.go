// Package commitgraph reads git's commit-graph files, objects/info/commit-graph or the chain of layers in
// objects/info/commit-graphs/, as gitformat-commit-graph(5) documents them: a commit's position by its hash,
// and the changed-path Bloom filters (the BIDX and BDAT chunks) that say which paths a commit certainly did
// not change against its first parent. go-git parses these files but does not query their filters.
//
// Every count, offset and length in a file is checked before use: a malformed or crafted file is an error
// from [Parse] or [Open] (the caller then walks without it), never a panic or an out-of-range read.
//
//	g, err := commitgraph.Open(rp.CommonRoot(), commitgraph.Options{})
//	pos, ok := g.Find(hash)
//	keys := commitgraph.NewKeys("src/main.go")
//	if ok && !g.MaybeChanged(pos, keys) { /* the commit did not touch src/main.go */ }
package commitgraph

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// HashLen is the length of a SHA-1 object name, the only hash grove's repositories use.
const HashLen = 20

// Graph is one commit-graph: a single file, or a chain of layers (base first). Positions count across the
// layers, as the format defines them.
type Graph struct {
	layers []*layer
}

// layer is one parsed file.
type layer struct {
	n      uint32 // commits in this file
	base   uint32 // commits in the layers below
	fanout []byte // OIDF: 256 big-endian counts
	oidl   []byte // OIDL: n sorted hashes
	cdat   []byte // CDAT: n entries of tree, two parents, generation and time
	edge   []byte // EDGE: extra parents of octopus merges (nil: none)
	bloom  *bloomChunks
}

// bloomChunks are a layer's filters: BIDX (n cumulative end offsets) and BDAT's settings and filter bytes.
type bloomChunks struct {
	index     []byte // BIDX
	data      []byte // BDAT after its 12-byte header
	version   uint32 // 1: murmur3 on signed bytes (git before 2.45); 2: on unsigned bytes
	numHashes uint32
}

var errCorrupt = errors.New("commit-graph: corrupt or unsupported file")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errCorrupt, fmt.Sprintf(format, args...))
}

const (
	headerLen  = 8
	chunkEntry = 12
	fanoutLen  = 256 * 4
	cdatEntry  = HashLen + 16
	bdatHeader = 12
	maxChunks  = 64  // a real file has at most about 10
	maxHashes  = 128 // git writes 7; more is a crafted file that would make every query slow
)

// chunk IDs, gitformat-commit-graph(5) and gitformat-chunk(5)
const (
	idOIDF = 0x4f494446
	idOIDL = 0x4f49444c
	idCDAT = 0x43444154
	idEDGE = 0x45444745
	idBIDX = 0x42494458
	idBDAT = 0x42444154
)

// Parse reads one commit-graph file held in data, whose layers below hold base commits. wantBloom is
// commitGraph.changedPathsVersion: -1 reads filters of any known version, 0 none, 1 or 2 only that version.
// The returned graph keeps references into data.
func Parse(data []byte, wantBloom int) (*Graph, error) {
	l, err := parseLayer(data, 0, 0, wantBloom)
	if err != nil {
		return nil, err
	}
	return &Graph{layers: []*layer{l}}, nil
}

// parseLayer reads one file; depth is its place in a chain (the number of base graphs it must name).
func parseLayer(data []byte, base uint32, depth int, wantBloom int) (*layer, error) {
	if len(data) < headerLen+chunkEntry+HashLen || !bytes.Equal(data[:4], []byte("CGPH")) {
		return nil, corrupt("no commit-graph header")
	}
	if data[4] != 1 || data[5] != 1 {
		return nil, corrupt("version %d, hash version %d (grove reads version 1 with SHA-1)", data[4], data[5])
	}
	if int(data[7]) != depth {
		return nil, corrupt("%d base graphs, expected %d", data[7], depth)
	}
	chunks, err := readChunks(data, int(data[6]))
	if err != nil {
		return nil, err
	}
	l := &layer{base: base, fanout: chunks[idOIDF]}
	if len(l.fanout) != fanoutLen {
		return nil, corrupt("fanout chunk of %d bytes", len(l.fanout))
	}
	if err := l.checkFanout(); err != nil {
		return nil, err
	}
	if uint64(len(chunks[idOIDL])) != uint64(l.n)*HashLen {
		return nil, corrupt("OID lookup chunk of %d bytes for %d commits", len(chunks[idOIDL]), l.n)
	}
	if uint64(len(chunks[idCDAT])) != uint64(l.n)*cdatEntry {
		return nil, corrupt("commit data chunk of %d bytes for %d commits", len(chunks[idCDAT]), l.n)
	}
	if uint64(base)+uint64(l.n) > 1<<31 {
		return nil, corrupt("too many commits")
	}
	l.oidl, l.cdat = chunks[idOIDL], chunks[idCDAT]
	if e := chunks[idEDGE]; len(e)%4 == 0 {
		l.edge = e
	}
	if wantBloom != 0 {
		l.bloom = parseBloom(chunks[idBIDX], chunks[idBDAT], l.n, wantBloom) // nil: no usable filters
	}
	return l, nil
}

// readChunks reads the table of contents: count entries and a terminating one, offsets ascending and inside
// the file before its trailing checksum. It returns each known chunk's bytes.
func readChunks(data []byte, count int) (map[uint32][]byte, error) {
	if count == 0 || count > maxChunks || headerLen+(count+1)*chunkEntry > len(data)-HashLen {
		return nil, corrupt("%d chunks", count)
	}
	end := uint64(len(data) - HashLen)
	out := make(map[uint32][]byte, count)
	for i := range count {
		e := data[headerLen+i*chunkEntry:]
		id := binary.BigEndian.Uint32(e)
		start, next := binary.BigEndian.Uint64(e[4:]), binary.BigEndian.Uint64(e[16:])
		if id == 0 || start > next || next > end || start < uint64(headerLen+(count+1)*chunkEntry) {
			return nil, corrupt("chunk %d at %d..%d", i, start, next)
		}
		if _, dup := out[id]; dup {
			return nil, corrupt("chunk %08x twice", id)
		}
		out[id] = data[start:next:next]
	}
	return out, nil
}

// checkFanout checks that the counts never decrease, and sets n.
func (l *layer) checkFanout() error {
	prev := uint32(0)
	for i := range 256 {
		v := binary.BigEndian.Uint32(l.fanout[i*4:])
		if v < prev {
			return corrupt("fanout decreases at %d", i)
		}
		prev = v
	}
	l.n = prev
	return nil
}

// parseBloom checks the filter chunks; nil means the layer has no filters grove may use.
func parseBloom(index, data []byte, n uint32, want int) *bloomChunks {
	if index == nil || data == nil || uint64(len(index)) != uint64(n)*4 || len(data) < bdatHeader {
		return nil
	}
	b := &bloomChunks{index: index, data: data[bdatHeader:],
		version:   binary.BigEndian.Uint32(data),
		numHashes: binary.BigEndian.Uint32(data[4:])}
	if b.version != 1 && b.version != 2 || want > 0 && uint32(want) != b.version {
		return nil
	}
	if b.numHashes == 0 || b.numHashes > maxHashes {
		return nil
	}
	prev := uint32(0)
	for i := range n {
		v := binary.BigEndian.Uint32(index[i*4:])
		if v < prev || uint64(v) > uint64(len(b.data)) {
			return nil
		}
		prev = v
	}
	return b
}

// Len is the number of commits in the graph.
func (g *Graph) Len() uint32 {
	if g == nil || len(g.layers) == 0 {
		return 0
	}
	top := g.layers[len(g.layers)-1]
	return top.base + top.n
}

// HasFilters reports whether any layer has changed-path filters grove reads.
func (g *Graph) HasFilters() bool {
	if g == nil {
		return false
	}
	for _, l := range g.layers {
		if l.bloom != nil {
			return true
		}
	}
	return false
}

// Find returns the position of the commit named h.
func (g *Graph) Find(h [HashLen]byte) (uint32, bool) {
	if g == nil {
		return 0, false
	}
	for _, l := range g.layers {
		if i, ok := l.find(h); ok {
			return l.base + i, true
		}
	}
	return 0, false
}

// find is a binary search in the fanout's bucket of h.
func (l *layer) find(h [HashLen]byte) (uint32, bool) {
	lo := uint32(0)
	if h[0] > 0 {
		lo = binary.BigEndian.Uint32(l.fanout[(int(h[0])-1)*4:])
	}
	hi := binary.BigEndian.Uint32(l.fanout[int(h[0])*4:])
	for lo < hi {
		mid := lo + (hi-lo)/2
		switch c := bytes.Compare(l.oidl[mid*HashLen:(mid+1)*HashLen], h[:]); {
		case c == 0:
			return mid, true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// layerOf returns the layer holding position pos and the position within it.
func (g *Graph) layerOf(pos uint32) (*layer, uint32, bool) {
	for _, l := range g.layers {
		if pos >= l.base && pos-l.base < l.n {
			return l, pos - l.base, true
		}
	}
	return nil, 0, false
}
