package gittools

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestSplitIndexCorruptionRefused: a split index whose link extension or shared index is damaged is refused
// or read, never a panic or a hang (the bitmaps are read with every count checked against the data).
func TestSplitIndexCorruptionRefused(t *testing.T) {
	f := layoutBase(t)
	f.git("config", "core.splitIndex", "true")
	f.git("config", "splitIndex.maxPercentChange", "100")
	f.git("update-index", "--split-index")
	f.git("rm", "-q", "--cached", "src/lib/x.go")
	f.write("a.txt", "staged\n")
	f.git("add", "a.txt")
	gitDir := filepath.Join(f.dir, ".git")
	split, err := os.ReadFile(filepath.Join(gitDir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	link := bytes.Index(split, []byte("link"))
	if link < 0 {
		t.Fatal("no link extension")
	}
	if _, err := readIndexAt(t, gitDir); err != nil {
		t.Fatalf("the intact split index: %v", err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	shared, _ := filepath.Glob(filepath.Join(gitDir, "sharedindex.*"))
	if len(shared) != 1 {
		t.Fatalf("shared indexes: %v", shared)
	}
	sharedData, err := os.ReadFile(shared[0])
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for i := range 3000 {
		data, sh := bytes.Clone(split), bytes.Clone(sharedData)
		for range 1 + rng.IntN(4) {
			if i%3 == 2 {
				sh[12+rng.IntN(len(sh)-32)] = byte(rng.Uint32())
			} else {
				data[link+8+rng.IntN(len(data)-link-28)] = byte(rng.Uint32())
			}
		}
		if i%5 == 0 {
			data = data[:link+8+rng.IntN(len(data)-link-8)]
		}
		os.WriteFile(filepath.Join(dir, "index"), data, 0o644)
		os.WriteFile(filepath.Join(dir, filepath.Base(shared[0])), sh, 0o644)
		if _, err := readIndexAt(t, dir); err != nil { // must return, refused or read
			refused++
		}
	}
	if refused == 0 {
		t.Error("no damaged split index was refused")
	}
}
