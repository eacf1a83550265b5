package packread

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/gittest"
)

// sha256DeltaRepo is deltaRepo in a SHA-256 repository.
func sha256DeltaRepo(t *testing.T) *gittest.Fixture {
	f := gittest.New(t)
	if err := os.RemoveAll(filepath.Join(f.Dir, ".git")); err != nil {
		t.Fatal(err)
	}
	f.Git("init", "-q", "-b", "main", "--object-format=sha256")
	var lines []string
	for i := range 200 {
		lines = append(lines, fmt.Sprintf("line %d of a file that changes a little at a time", i))
	}
	for c := range 20 {
		lines[(c*37)%len(lines)] = fmt.Sprintf("changed in commit %d", c)
		body := strings.Join(lines, "\n") + "\n"
		f.Write("a.txt", body, "dir/b.txt", strings.ToUpper(body), fmt.Sprintf("dir/sub/f%d.txt", c%3), fmt.Sprint(c))
		f.Commit(fmt.Sprintf("commit %d", c))
	}
	return f
}

// TestReadSHA256MatchesGit reads every object of a SHA-256 repository by the first 20 bytes of its name, from
// packs git wrote with OFS_DELTA and with REF_DELTA deltas, compares it with git cat-file, and finds its whole
// name with Full.
func TestReadSHA256MatchesGit(t *testing.T) {
	f := sha256DeltaRepo(t)
	f.Git("repack", "-adfq", "--depth=50", "--window=50")
	want := catAll(t, f)
	for name, dir := range map[string]string{
		"repack, OFS_DELTA": filepath.Join(f.Dir, ".git", "objects", "pack"),
		"REF_DELTA":         packInto(t, f),
	} {
		t.Run(name, func(t *testing.T) {
			r := OpenHash(dir, sha256Len)
			defer r.Close()
			if err := r.Load(); err != nil || len(r.packs) != 1 {
				t.Fatalf("%d packs, err %v; want 1 pack", len(r.packs), err)
			}
			if c := typeCounts(t, r); c[ofsDelta]+c[refDelta] == 0 {
				t.Fatalf("no deltas: %v", c)
			}
			got := map[string]oracleObject{}
			for full := range want {
				var key [20]byte
				hex.Decode(key[:], []byte(full[:40]))
				typ, data, err := r.Read(key, noLimit)
				if err != nil {
					t.Fatalf("%s: %v", full, err)
				}
				got[full] = oracleObject{Type: typ.String(), Data: string(data)}
				if name, ok := r.Full(key[:]); !ok || hex.EncodeToString(name) != full {
					t.Errorf("Full(%x) = %x, %v; want %s", key, name, ok, full)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("objects differ from git cat-file (-git +packread):\n%s", diff)
			}
		})
	}
}

// TestSHA1ReaderSkipsSHA256Packs: a reader of 20-byte names treats a SHA-256 pack as not its own.
func TestSHA1ReaderSkipsSHA256Packs(t *testing.T) {
	f := sha256DeltaRepo(t)
	f.Git("repack", "-adq")
	r := Open(filepath.Join(f.Dir, ".git", "objects", "pack"))
	defer r.Close()
	if err := r.Load(); err != nil || len(r.packs) != 0 {
		t.Errorf("a SHA-1 reader loaded %d SHA-256 packs (err %v), want none", len(r.packs), err)
	}
}

// TestMutatedSHA256Packs reads a SHA-256 pack and index with random bytes changed: errors are fine, panics and
// hangs are not.
func TestMutatedSHA256Packs(t *testing.T) {
	f := sha256DeltaRepo(t)
	f.Git("repack", "-adfq")
	src := filepath.Join(f.Dir, ".git", "objects", "pack")
	ents, _ := os.ReadDir(src)
	var p0, x0 []byte
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(e.Name()) {
		case ".pack":
			p0 = data
		case ".idx":
			x0 = data
		}
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	read := 0
	for range 300 {
		p, x := bytes.Clone(p0), bytes.Clone(x0)
		for range 1 + rng.IntN(3) {
			if rng.IntN(2) == 0 {
				p[rng.IntN(len(p)-sha256Len)] = byte(rng.IntN(256))
			} else {
				x[rng.IntN(len(x)-2*sha256Len)] = byte(rng.IntN(256))
			}
		}
		sum := sha256.Sum256(p[:len(p)-sha256Len])
		copy(p[len(p)-sha256Len:], sum[:])
		copy(x[len(x)-2*sha256Len:], sum[:])
		os.WriteFile(filepath.Join(dir, "pack-1.pack"), p, 0o644)
		os.WriteFile(filepath.Join(dir, "pack-1.idx"), x, 0o644)
		r := OpenHash(dir, sha256Len)
		_ = r.Load()
		for _, pk := range r.packs {
			for i := range min(pk.idx.n, 64) {
				var key [20]byte
				copy(key[:], pk.idx.name(i))
				if _, _, err := r.Read(key, func(Type) int64 { return 1 << 20 }); err == nil {
					read++
				}
			}
		}
		r.Close()
	}
	if read == 0 {
		t.Error("no object was read from any mutated pack: the mutations never left a readable one")
	}
}
