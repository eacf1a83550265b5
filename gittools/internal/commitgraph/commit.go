package commitgraph

import "encoding/binary"

// Commit is what the graph stores of a commit.
type Commit struct {
	Tree    [HashLen]byte
	Parents []uint32 // positions
	Time    int64    // committer time, Unix seconds
}

const (
	noParent   = 0x70000000
	edgeFlag   = 0x80000000
	maxOctopus = 1 << 16 // parents read from the extra edge list, at most
)

// Hash returns the object name of the commit at pos.
func (g *Graph) Hash(pos uint32) ([HashLen]byte, bool) {
	var h [HashLen]byte
	l, i, ok := g.layerOf(pos)
	if !ok {
		return h, false
	}
	copy(h[:], l.oidl[i*HashLen:])
	return h, true
}

// Commit returns the commit at pos; false when pos is out of range or its parents point outside the graph.
func (g *Graph) Commit(pos uint32) (Commit, bool) {
	l, i, ok := g.layerOf(pos)
	if !ok {
		return Commit{}, false
	}
	e := l.cdat[i*cdatEntry : (i+1)*cdatEntry]
	var c Commit
	copy(c.Tree[:], e)
	p1, p2 := binary.BigEndian.Uint32(e[HashLen:]), binary.BigEndian.Uint32(e[HashLen+4:])
	hi, lo := binary.BigEndian.Uint32(e[HashLen+8:]), binary.BigEndian.Uint32(e[HashLen+12:])
	c.Time = int64(hi&3)<<32 | int64(lo)
	n := g.Len()
	if p1 != noParent {
		if p1 >= n {
			return Commit{}, false
		}
		c.Parents = append(c.Parents, p1)
	}
	switch {
	case p2 == noParent:
	case p2&edgeFlag == 0:
		if p2 >= n || p1 == noParent {
			return Commit{}, false
		}
		c.Parents = append(c.Parents, p2)
	default:
		for k := p2 &^ edgeFlag; ; k++ {
			if uint64(k)*4+4 > uint64(len(l.edge)) || len(c.Parents) > maxOctopus {
				return Commit{}, false
			}
			v := binary.BigEndian.Uint32(l.edge[k*4:])
			if v&^edgeFlag >= n {
				return Commit{}, false
			}
			c.Parents = append(c.Parents, v&^edgeFlag)
			if v&edgeFlag != 0 {
				break
			}
		}
	}
	return c, true
}
