package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// gen holds the main line's current tree and writes commits to a fast-import stream.
type gen struct {
	w     *bufio.Writer
	rng   *rand.Rand
	err   error
	files map[string][]string // path -> lines, at the main line's tip
	paths []string            // keys of files, in a stable random-access order
	pos   map[string]int      // index of each path in paths
	mark  int
	now   int64 // committer time of the last commit (Unix seconds)
	dirs  []string
}

// change is one file command of a commit: 'M' (write path), 'D' (delete path), 'R' (rename from to path).
type change struct {
	op         byte
	path, from string
}

var words = strings.Fields(`alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega vector matrix buffer
	cache index queue stack graph node edge route token parser lexer writer reader stream packet frame socket
	client server config option handler worker pool batch commit branch merge record schema table column value
	result error status event signal timer clock limit quota budget metric sample filter mapper reducer`)

var authors = []string{
	"Ada Lovelace <ada@example.org>", "Alan Turing <alan@example.org>", "Grace Hopper <grace@example.org>",
	"Edsger Dijkstra <edsger@example.org>", "Barbara Liskov <barbara@example.org>", "Ken Thompson <ken@example.org>",
	"Donald Knuth <don@example.org>", "Frances Allen <fran@example.org>", "John Backus <john@example.org>",
	"Radia Perlman <radia@example.org>", "Leslie Lamport <leslie@example.org>", "Niklaus Wirth <nik@example.org>",
}

func newGen(w *bufio.Writer, seed uint64) *gen {
	return &gen{
		w:     w,
		rng:   rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)),
		files: make(map[string][]string),
		pos:   make(map[string]int),
		now:   1_577_836_800, // 2020-01-01
	}
}

func (g *gen) word() string { return words[g.rng.IntN(len(words))] }

// line returns one line of plausible source text; most lines are unique, as in real code.
func (g *gen) line() string {
	indent := strings.Repeat("\t", g.rng.IntN(3))
	switch g.rng.IntN(6) {
	case 0:
		return fmt.Sprintf("%s// %s the %s of %s %s", indent, g.word(), g.word(), g.word(), g.word())
	case 1:
		return fmt.Sprintf("%sif %s.%s(%d) {", indent, g.word(), g.word(), g.rng.IntN(1000))
	case 2:
		return indent + "}"
	default:
		return fmt.Sprintf("%s%s%d := %s(%s, %d)", indent, g.word(), g.rng.IntN(100), g.word(), g.word(), g.rng.IntN(10000))
	}
}

func (g *gen) lines(min, max int) []string {
	n := min + g.rng.IntN(max-min+1)
	out := make([]string, n)
	for i := range out {
		out[i] = g.line()
	}
	return out
}

// edit returns lines with 1-3 hunks replaced, inserted or deleted; the result keeps at least 5 lines.
func (g *gen) edit(lines []string) []string {
	out := slices.Clone(lines)
	for range 1 + g.rng.IntN(3) {
		i := g.rng.IntN(len(out) + 1)
		k := 1 + g.rng.IntN(4)
		switch op := g.rng.IntN(3); {
		case op == 0 && i < len(out):
			for j := i; j < min(i+k, len(out)); j++ {
				out[j] = g.line()
			}
		case op == 2 && len(out) > 40 && i < len(out):
			out = slices.Delete(out, i, min(i+k, len(out)))
		default:
			add := make([]string, k)
			for j := range add {
				add[j] = g.line()
			}
			out = slices.Insert(out, i, add...)
		}
	}
	return out
}

// set records path's new content on the main line.
func (g *gen) set(path string, lines []string) {
	if _, ok := g.files[path]; !ok {
		g.pos[path] = len(g.paths)
		g.paths = append(g.paths, path)
	}
	g.files[path] = lines
}

// remove forgets path on the main line.
func (g *gen) remove(path string) {
	i, ok := g.pos[path]
	if !ok {
		return
	}
	last := g.paths[len(g.paths)-1]
	g.paths[i] = last
	g.pos[last] = i
	g.paths = g.paths[:len(g.paths)-1]
	delete(g.pos, path)
	delete(g.files, path)
}

// commit writes a commit on ref with the given changes, taking file contents from contents (or g.files);
// from and merge are parent marks (0: none / the ref's tip). It returns the commit's mark.
func (g *gen) commit(ref string, at int64, from, merge int, msg string, changes []change, contents map[string][]string) int {
	g.mark++
	who := authors[g.rng.IntN(len(authors))]
	fmt.Fprintf(g.w, "commit %s\nmark :%d\nauthor %s %d +0000\ncommitter %s %d +0000\ndata %d\n%s\n",
		ref, g.mark, who, at-int64(g.rng.IntN(3600)), who, at, len(msg), msg)
	if from > 0 {
		fmt.Fprintf(g.w, "from :%d\n", from)
	}
	if merge > 0 {
		fmt.Fprintf(g.w, "merge :%d\n", merge)
	}
	for _, c := range changes {
		switch c.op {
		case 'D':
			fmt.Fprintf(g.w, "D %s\n", c.path)
		case 'R':
			fmt.Fprintf(g.w, "R %s %s\n", c.from, c.path)
		case 'M':
			lines := contents[c.path]
			if contents == nil {
				lines = g.files[c.path]
			}
			size := len(lines)
			for _, l := range lines {
				size += len(l)
			}
			fmt.Fprintf(g.w, "M 100644 inline %s\ndata %d\n", c.path, size)
			for _, l := range lines {
				g.w.WriteString(l)
				g.w.WriteByte('\n')
			}
		}
	}
	_, err := g.w.WriteString("\n")
	g.fail(err)
	return g.mark
}

// tag points refs/tags/name at mark.
func (g *gen) tag(name string, mark int) {
	fmt.Fprintf(g.w, "reset refs/tags/%s\nfrom :%d\n\n", name, mark)
}

// tick advances the clock by 10 minutes to 4 hours.
func (g *gen) tick() int64 {
	g.now += int64(600 + g.rng.IntN(4*3600))
	return g.now
}

// newPath returns a path not yet used, in a random directory of g.dirs.
func (g *gen) newPath() string {
	exts := []string{".go", ".go", ".go", ".ts", ".md", ".py", ".c", ".h"}
	ext := exts[g.rng.IntN(len(exts))]
	base := fmt.Sprintf("%s/%s_%s", g.dirs[g.rng.IntN(len(g.dirs))], g.word(), g.word())
	p := base + ext
	for i := 2; g.files[p] != nil; i++ {
		p = fmt.Sprintf("%s_%d%s", base, i, ext)
	}
	return p
}

// countDirs counts the distinct directories holding the current files.
func (g *gen) countDirs() int {
	seen := make(map[string]bool)
	for _, p := range g.paths {
		for i := strings.LastIndexByte(p, '/'); i > 0; i = strings.LastIndexByte(p[:i], '/') {
			if seen[p[:i]] {
				break
			}
			seen[p[:i]] = true
		}
	}
	return len(seen)
}
