package commitgraph

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// Options configures [Open].
type Options struct {
	// ChangedPathsVersion is commitGraph.changedPathsVersion: -1 (or 0 in this struct's zero value, see
	// NoFilters) reads filters of the version the repository has, 1 or 2 only that version.
	ChangedPathsVersion int
	NoFilters           bool  // commitGraph.changedPathsVersion=0 or readChangedPaths=false
	MaxBytes            int64 // all files together; 0 means DefaultMaxBytes
}

// DefaultMaxBytes bounds what Open reads into memory: about 72 bytes per commit plus its filter (some 10
// bytes), so 256 MiB holds more than 3 million commits.
const DefaultMaxBytes = 256 << 20

// maxLayers bounds a chain: git merges layers long before this.
const maxLayers = 64

const (
	singlePath = "objects/info/commit-graph"
	chainDir   = "objects/info/commit-graphs"
	chainFile  = "commit-graph-chain"
)

// Open reads the commit-graph of the repository whose objects live in commonDir (the directory opened as an
// os.Root, through the roots' handles): objects/info/commit-graph when it exists, else the chain in
// objects/info/commit-graphs/. It returns fs.ErrNotExist when there is neither. Files are opened through
// commonDir and must be regular files (a FIFO would block).
func Open(commonDir *os.Root, opts Options) (*Graph, error) {
	want := opts.ChangedPathsVersion
	if want == 0 {
		want = -1
	}
	if opts.NoFilters {
		want = 0
	}
	budget := opts.MaxBytes
	if budget <= 0 {
		budget = DefaultMaxBytes
	}
	data, err := readCapped(commonDir, singlePath, &budget)
	if err == nil {
		return Parse(data, want)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return openChain(commonDir, want, &budget)
}

// openChain reads the chain file and its layers, base first.
func openChain(commonDir *os.Root, want int, budget *int64) (*Graph, error) {
	small := int64(maxLayers * (2*HashLen + 2))
	list, err := readCapped(commonDir, chainDir+"/"+chainFile, &small)
	if err != nil {
		return nil, err
	}
	g := &Graph{}
	sc := bufio.NewScanner(bytes.NewReader(list))
	for sc.Scan() {
		name := strings.TrimSpace(sc.Text())
		if name == "" {
			continue
		}
		if len(name) != 2*HashLen || strings.Trim(name, "0123456789abcdef") != "" {
			return nil, corrupt("chain names %q", name)
		}
		if len(g.layers) == maxLayers {
			return nil, corrupt("more than %d layers", maxLayers)
		}
		data, err := readCapped(commonDir, chainDir+"/graph-"+name+".graph", budget)
		if err != nil {
			return nil, err
		}
		l, err := parseLayer(data, g.Len(), len(g.layers), want)
		if err != nil {
			return nil, fmt.Errorf("layer %d: %w", len(g.layers), err)
		}
		g.layers = append(g.layers, l)
	}
	if len(g.layers) == 0 {
		return nil, corrupt("empty chain")
	}
	return g, nil
}

// readCapped reads name (slash-separated, inside dir) whole, refusing it when it is bigger than what is left
// of budget, and takes its size from budget.
func readCapped(dir *os.Root, name string, budget *int64) ([]byte, error) {
	f, err := gitfmt.OpenRegular(dir, filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > *budget {
		return nil, fmt.Errorf("%s is %d bytes, over the %d bytes grove reads: %w", name, fi.Size(), *budget, errTooBig)
	}
	data := make([]byte, fi.Size()) // one allocation of the checked size: io.ReadAll grew it step by step
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	*budget -= int64(len(data))
	return data, nil
}

var errTooBig = errors.New("commit-graph too large")

// Stamp is what Open's result depends on: the stat data of the single file and of the chain file.
type Stamp struct {
	single, chain fileStamp
}

type fileStamp struct {
	mtime, size int64
	ok          bool
}

// StampOf stats the files Open would read.
func StampOf(commonDir *os.Root) Stamp {
	return Stamp{
		single: stat(commonDir, filepath.FromSlash(singlePath)),
		chain:  stat(commonDir, filepath.Join(filepath.FromSlash(chainDir), chainFile)),
	}
}

func stat(dir *os.Root, name string) fileStamp {
	fi, err := dir.Lstat(name)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{mtime: fi.ModTime().UnixNano(), size: fi.Size(), ok: true}
}
