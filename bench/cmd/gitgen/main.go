// Command gitgen writes a `git fast-import` stream for one of the two synthetic repositories of the Git
// benchmark (bench/git.sh) to stdout, and a JSON description of it (the paths and tags the benchmark uses)
// to the file named by -meta.
//
//	go run ./bench/cmd/gitgen -kind mid -meta mid.json | git -C mid fast-import --quiet
//
// "mid": about 5,000 files in ~300 directories and 20,000+ commits of 1-4 files each, with renames,
// deletions, topic branches merged back, a few files modified very often and one path (meta.long_path)
// with a long history. "wide": 50,000+ files in 5,000+ directories and a few hundred commits, one of
// which (tag diff1000-b, parent tag diff1000-a) modifies 1,000 files. "log20k" and "status50k" are the
// shapes of issue 13 (see flat.go): 5,000 files in 100 directories and 20,000 commits of 3 files each, and
// 50,000 files in 1,000 directories with 20 such commits. The output is deterministic for a seed.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
)

// Meta describes a generated repository for the benchmark driver.
type Meta struct {
	Kind      string   `json:"kind"`
	Commits   int      `json:"commits"`
	Merges    int      `json:"merges"`
	Renames   int      `json:"renames"`
	Files     int      `json:"files"` // files at HEAD
	Dirs      int      `json:"dirs"`  // directories at HEAD (leaf and inner)
	LongPath  string   `json:"long_path"`
	LongHits  int      `json:"long_hits"` // commits touching LongPath
	Modify    []string `json:"modify"`    // 10 tracked files for "status with 10 modified"
	DiffA     string   `json:"diff_a"`    // tag: base of the ~1,000-file diff
	DiffB     string   `json:"diff_b"`    // tag: its end
	DiffFiles int      `json:"diff_files"`
}

func main() {
	kind := flag.String("kind", "mid", "mid, wide, log20k or status50k")
	metaPath := flag.String("meta", "", "write the repository description (JSON) here")
	seed := flag.Uint64("seed", 1, "random seed")
	commits := flag.Int("commits", 0, "commits on the main line (0: 20,500 for mid, 400 for wide)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gitgen: ")

	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	g := newGen(out, *seed)
	var m Meta
	switch *kind {
	case "mid":
		m = g.mid(orDefault(*commits, 20_500))
	case "wide":
		m = g.wide(orDefault(*commits, 400))
	case "log20k": // issue 13: git_log -- path on 20,000 commits, 5,000 files
		m = g.flat("log20k", 5_000, 100, orDefault(*commits, 20_000), 3, 12)
	case "status50k": // issue 13: git_status on 50,000 files
		m = g.flat("status50k", 50_000, 1_000, orDefault(*commits, 20), 3, 0)
	default:
		log.Fatalf("unknown -kind %q (mid, wide, log20k or status50k)", *kind)
	}
	if err := out.Flush(); err != nil {
		log.Fatal(err)
	}
	if g.err != nil {
		log.Fatal(g.err)
	}
	if *metaPath != "" {
		data, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(*metaPath, append(data, '\n'), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	log.Printf("%s: %d commits (%d merges, %d renames), %d files in %d dirs, %s touched by %d commits, %s..%s changes %d files",
		m.Kind, m.Commits, m.Merges, m.Renames, m.Files, m.Dirs, m.LongPath, m.LongHits, m.DiffA, m.DiffB, m.DiffFiles)
}

func orDefault(v, d int) int {
	if v > 0 {
		return v
	}
	return d
}

// fail records the first error.
func (g *gen) fail(err error) {
	if g.err == nil && err != nil {
		g.err = fmt.Errorf("writing the stream: %w", err)
	}
}
