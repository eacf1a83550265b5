package grep

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkScan scans the text files of GROVE_GREP_TREE (e.g.
// /work/repos/git), held in memory, for each pattern: the matcher's cost
// without the reads. Without the variable it scans generated C-like text.
//
//	GROVE_GREP_TREE=/work/repos/git go test ./fsres/internal/grep -run '^$' -bench Scan
func BenchmarkScan(b *testing.B) {
	files := scanCorpus(b)
	size := 0
	for _, f := range files {
		size += len(f)
	}
	for _, expr := range []string{`strbuf_addf`, `[a-z]+_release\(&`, `\bstatic inline\b`, `\{$`, `return`, `(?i)deprecated`, `[A-Z]{6,}_[0-9]+`} {
		b.Run(expr, func(b *testing.B) {
			p, err := Compile(expr, Options{})
			if err != nil {
				b.Fatal(err)
			}
			s := &scanner{p: p, limit: 1 << 30}
			b.SetBytes(int64(size))
			cpu0 := cpuTime()
			for b.Loop() {
				n := 0
				for _, f := range files {
					h := Hits{}
					s.scan(f, &h)
					n += h.Matches
				}
				if n == 0 && expr != `[A-Z]{6,}_[0-9]+` {
					b.Fatalf("%s: no match", expr)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// scanCorpus returns the text files of GROVE_GREP_TREE, or generated ones.
func scanCorpus(b *testing.B) [][]byte {
	dir := os.Getenv("GROVE_GREP_TREE")
	if dir == "" {
		var files [][]byte
		line := "static inline int strbuf_release(&sb) {\n\treturn DEPRECATED_FLAG_1234;\n}\n"
		for range 200 {
			files = append(files, []byte(strings.Repeat(line, 500)))
		}
		return files
	}
	var files [][]byte
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return fs.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil && !isBinary(data) {
			files = append(files, data)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return files
}
