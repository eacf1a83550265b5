package commitgraph

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// FuzzBloomParse feeds crafted commit-graph files to Parse and queries whatever it accepts: no input may
// panic or read out of range.
func FuzzBloomParse(f *testing.F) {
	fx := bloomRepo(f, false)
	data, err := os.ReadFile(filepath.Join(fx.Dir, ".git", "objects", "info", "commit-graph"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte("CGPH\x01\x01\x03\x00"))
	bad := append([]byte(nil), data...)
	binary.BigEndian.PutUint64(bad[8+4:], 1<<40) // first chunk's offset far past the end
	f.Add(bad)
	keys := []*Keys{NewKeys("a.txt"), NewKeys("dir/sub/c.go"), NewKeys("ünï/çødé.txt")}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Parse(data, -1)
		if err != nil {
			return
		}
		n := g.Len()
		for pos := uint32(0); pos < n && pos < 4096; pos++ {
			for _, k := range keys {
				g.MaybeChanged(pos, k)
			}
		}
		g.MaybeChanged(n, keys[0])
		for pos := uint32(0); pos < n && pos < 4096; pos++ {
			if c, ok := g.Commit(pos); ok {
				for _, p := range c.Parents {
					if p >= n {
						t.Fatalf("commit %d has parent %d outside the graph of %d", pos, p, n)
					}
				}
			}
			g.Hash(pos)
		}
		l := g.layers[0]
		for i := uint32(0); i < l.n && i < 4096; i++ {
			var h [HashLen]byte
			copy(h[:], l.oidl[i*HashLen:])
			if _, ok := g.Find(h); !ok {
				h[0]++ // an unsorted crafted file may hide its own entries; that is fine, a panic is not
			}
		}
		g.Find([HashLen]byte{0xff})
	})
}
