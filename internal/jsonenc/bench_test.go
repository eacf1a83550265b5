package jsonenc

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// grepAnswer is shaped like grep's `return` on git/git: 25,000 matching
// lines of C in 500 files, 1.9 MB of JSON.
func grepAnswer() answer {
	a := answer{Path: "/work/repos/git", Matches: make([]match, 0, 25000)}
	for i := range 25000 {
		a.Matches = append(a.Matches, match{
			Path: fmt.Sprintf("builtin/file%03d.c", i/50),
			Line: i%50*2 + 1,
			Text: fmt.Sprintf("\t\treturn error(_(\"bad value <%d> for '%%s'\"), name);", i),
		})
	}
	a.Total = len(a.Matches)
	return a
}

// BenchmarkEncode compares encoding/json with Append on grepAnswer; cpu-ns/op
// is the process's CPU time per encoding, steadier than wall time on a
// shared machine.
func BenchmarkEncode(b *testing.B) {
	a := grepAnswer()
	n, _ := stdJSON(a)
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(n)))
		defer cpuPerOp(b)()
		for b.Loop() {
			if _, err := stdJSON(a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("append-nil", func(b *testing.B) {
		b.SetBytes(int64(len(n)))
		defer cpuPerOp(b)()
		for b.Loop() {
			if _, err := Append(nil, a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("marshal-released", func(b *testing.B) {
		b.SetBytes(int64(len(n)))
		defer cpuPerOp(b)()
		for b.Loop() {
			buf, err := Marshal(a)
			if err != nil {
				b.Fatal(err)
			}
			Release(buf)
		}
	})
	b.Run("marshal-kept", func(b *testing.B) { // the size hint, no pool
		b.SetBytes(int64(len(n)))
		defer cpuPerOp(b)()
		for b.Loop() {
			if _, err := Marshal(a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jsonenc-reused", func(b *testing.B) {
		b.SetBytes(int64(len(n)))
		var buf []byte
		defer cpuPerOp(b)()
		for b.Loop() {
			var err error
			if buf, err = Append(buf[:0], a); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// cpuPerOp reports the CPU time per iteration when the returned function runs.
func cpuPerOp(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}

// BenchmarkAppendString encodes 1 MiB of plain text (a newline every 64
// bytes) and of Go-like source (a quote, tab or newline every 15 bytes).
func BenchmarkAppendString(b *testing.B) {
	inputs := []struct{ name, line string }{
		{"plain", strings.Repeat("abcdefghij", 6) + "abc\n"},
		{"source", "\tfmt.Println(\"hello, world\") // a line of Go, more or less\n"},
	}
	for _, in := range inputs {
		s := strings.Repeat(in.line, (1<<20)/len(in.line))
		buf := make([]byte, 0, 2*len(s))
		b.Run(in.name+"/jsonenc", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				buf = AppendString(buf[:0], s)
			}
		})
		b.Run(in.name+"/encoding-json", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				if _, err := json.Marshal(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
