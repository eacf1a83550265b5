package grep

import (
	"regexp/syntax"
	"slices"
	"unicode/utf8"
)

// The lazy DFA answers one question fast: does this line hold a match? It
// is built as it runs, from the compiled program of the pattern: a state is
// the set of program threads alive after some prefix of a line, plus what
// the last character was (for ^ and \b), and its transitions on ASCII
// bytes are cached, so a line of ASCII text costs a table lookup per byte.
// Non-ASCII characters take the uncached way. Each worker has its own
// cache; when it passes maxStates it is dropped and rebuilt, which keeps
// memory bounded (the states of one generation, plus the one a line is in)
// and the scan linear.

// maxStates bounds a worker's DFA cache (about 1 KiB a state).
const maxStates = 4096

// prevKind is what precedes a position, as far as assertions care.
type prevKind uint8

const (
	atLineStart prevKind = iota
	afterWord
	afterOther
)

// dstate is one DFA state.
type dstate struct {
	pcs  []uint32 // threads waiting to consume a character, sorted
	prev prevKind
	next [128]*dstate     // by ASCII byte; nil: not computed yet
	wide map[rune]*dstate // by other character, up to maxWide of them
	end  int8             // does the line match if it ends here: 0 unknown, 1 yes, -1 no
}

// maxWide bounds the non-ASCII transitions a state caches.
const maxWide = 64

// matched is the state after a match: the line is a match, whatever follows.
var matched = &dstate{end: 1}

// dfa is one worker's lazily built automaton for a program.
type dfa struct {
	prog   *syntax.Prog
	states map[string]*dstate
	start  *dstate
	stack  []uint32 // scratch for closures
	next   []uint32 // scratch for steps
	seen   []bool   // scratch, by pc
	key    []byte
}

func newDFA(prog *syntax.Prog) *dfa {
	return &dfa{prog: prog, seen: make([]bool, len(prog.Inst)), states: make(map[string]*dstate)}
}

// state returns the cached state for pcs and prev, making it if new.
func (d *dfa) state(pcs []uint32, prev prevKind) *dstate {
	d.key = d.key[:0]
	d.key = append(d.key, byte(prev))
	for _, pc := range pcs {
		d.key = append(d.key, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	if s, ok := d.states[string(d.key)]; ok {
		return s
	}
	if len(d.states) >= maxStates { // a new generation; the old is left to the collector
		d.states = make(map[string]*dstate)
		d.start = nil
	}
	s := &dstate{pcs: slices.Clone(pcs), prev: prev}
	d.states[string(d.key)] = s
	return s
}

// matchLine reports whether line holds a match.
func (d *dfa) matchLine(line []byte) bool {
	if d.start == nil {
		d.start = d.state(nil, atLineStart)
	}
	s := d.start
	for i := 0; i < len(line); {
		c := line[i]
		if c < utf8.RuneSelf {
			n := s.next[c]
			if n == nil {
				n = d.step(s, rune(c))
				s.next[c] = n
			}
			s = n
			i++
		} else {
			r, size := utf8.DecodeRune(line[i:])
			s = d.stepWide(s, r)
			i += size
		}
		if s == matched {
			return true
		}
	}
	if s.end == 0 {
		s.end = -1
		if d.closure(s, -1, nil) {
			s.end = 1
		}
	}
	return s.end == 1
}

// stepWide is step for a character beyond ASCII, cached per state.
func (d *dfa) stepWide(s *dstate, r rune) *dstate {
	if n, ok := s.wide[r]; ok {
		return n
	}
	n := d.step(s, r)
	if s.wide == nil {
		s.wide = make(map[rune]*dstate)
	}
	if len(s.wide) < maxWide {
		s.wide[r] = n
	}
	return n
}

// step returns the state after s reads r.
func (d *dfa) step(s *dstate, r rune) *dstate {
	next := d.next[:0]
	defer func() { d.next = next[:0] }()
	if d.closure(s, r, &next) {
		return matched
	}
	slices.Sort(next)
	next = slices.Compact(next)
	kind := afterOther
	if syntax.IsWordChar(r) {
		kind = afterWord
	}
	return d.state(next, kind)
}

// closure follows the threads of s (and a new one from the start: the
// search is unanchored) through everything that reads no character, with
// the assertions judged between what came before s and r (-1: the line
// ends). It reports whether a thread matches; otherwise, if next is not
// nil, it appends the threads that go on after reading r.
func (d *dfa) closure(s *dstate, r rune, next *[]uint32) bool {
	r1 := rune(-1)
	switch s.prev {
	case afterWord:
		r1 = 'a'
	case afterOther:
		r1 = ' '
	}
	ctx := syntax.EmptyOpContext(r1, r)
	stack := append(d.stack[:0], uint32(d.prog.Start))
	stack = append(stack, s.pcs...)
	clear(d.seen)
	found := false
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if d.seen[pc] {
			continue
		}
		d.seen[pc] = true
		inst := &d.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstMatch:
			found = true
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, inst.Out, inst.Arg)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, inst.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(inst.Arg)&^ctx == 0 {
				stack = append(stack, inst.Out)
			}
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			if next != nil && r >= 0 && inst.MatchRune(r) {
				*next = append(*next, inst.Out)
			}
		}
	}
	d.stack = stack
	return found
}
