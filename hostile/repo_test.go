package hostile

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// gitRoot is a root that is a Git repository: a.txt committed on master.
func gitRoot(t *testing.T) string {
	t.Helper()
	root := tempRoot(t)
	commitFiles(t, root, map[string]string{"a.txt": "alpha\n"}, "first")
	return root
}

var testSignature = object.Signature{Name: "Hostile", Email: "hostile@example.com", When: time.Unix(1700000000, 0).UTC()}

// commitFiles writes files into the worktree at dir (a repository is made
// if there is none), stages them and commits; it returns the commit.
func commitFiles(t *testing.T, dir string, files map[string]string, msg string) plumbing.Hash {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		if repo, err = git.PlainInit(dir, false); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, dir, files)
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, err := wt.Add(name); err != nil {
			t.Fatal(err)
		}
	}
	sig := testSignature
	h, err := wt.Commit(msg, &git.CommitOptions{Author: &sig, Committer: &sig})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// objectName is the Git object name of kind (blob, tree, commit) and content.
func objectName(kind string, content []byte) [20]byte {
	h := sha1.New()
	fmt.Fprintf(h, "%s %d\x00", kind, len(content))
	h.Write(content)
	return [20]byte(h.Sum(nil))
}

// writeObject stores a small loose object and returns its name.
func writeObject(t *testing.T, gitDir, kind string, content []byte) [20]byte {
	t.Helper()
	name := objectName(kind, content)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	fmt.Fprintf(zw, "%s %d\x00", kind, len(content))
	zw.Write(content)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	writeLoose(t, gitDir, name, z.Bytes())
	return name
}

// writeLoose stores the compressed bytes of a loose object under name.
func writeLoose(t *testing.T, gitDir string, name [20]byte, compressed []byte) {
	t.Helper()
	hexName := hex.EncodeToString(name[:])
	p := filepath.Join(gitDir, "objects", hexName[:2], hexName[2:])
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, compressed, 0o444); err != nil {
		t.Fatal(err)
	}
}

// treeEntry is one entry of a tree written byte by byte: any name at all.
type treeEntry struct {
	mode string // "100644", "40000"
	name string
	hash [20]byte
}

func writeTree(t *testing.T, gitDir string, entries ...treeEntry) [20]byte {
	t.Helper()
	var b bytes.Buffer
	for _, e := range entries {
		fmt.Fprintf(&b, "%s %s\x00", e.mode, e.name)
		b.Write(e.hash[:])
	}
	return writeObject(t, gitDir, "tree", b.Bytes())
}

func writeCommit(t *testing.T, gitDir string, tree [20]byte, msg string, parents ...[20]byte) [20]byte {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %x\n", tree)
	for _, p := range parents {
		fmt.Fprintf(&b, "parent %x\n", p)
	}
	b.WriteString("author Hostile <hostile@example.com> 1700000000 +0000\n")
	b.WriteString("committer Hostile <hostile@example.com> 1700000000 +0000\n\n")
	b.WriteString(msg + "\n")
	return writeObject(t, gitDir, "commit", b.Bytes())
}

// setRef points a ref (e.g. refs/heads/evil) at a commit.
func setRef(t *testing.T, gitDir, ref string, h [20]byte) {
	t.Helper()
	writeFiles(t, gitDir, map[string]string{ref: fmt.Sprintf("%x\n", h)})
}

// readRef is the commit a loose ref (e.g. refs/heads/master) names.
func readRef(t *testing.T, gitDir, ref string) [20]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref)))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(raw) != 20 {
		t.Fatalf("ref %s holds %q: %v", ref, b, err)
	}
	return [20]byte(raw)
}

// indexEntry is one entry of a crafted .git/index.
type indexEntry struct {
	name string
	hash [20]byte
	size uint32
}

// writeIndex writes a version 2 index (gitformat-index(5)) holding entries
// as given, names unchecked: "DIRC", version, count, then per entry the
// stat data, mode, object name, flags (name length) and the NUL-padded name,
// and the SHA-1 of all that.
func writeIndex(t *testing.T, gitDir string, entries ...indexEntry) {
	t.Helper()
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	var b bytes.Buffer
	b.WriteString("DIRC")
	binary.Write(&b, binary.BigEndian, uint32(2))
	binary.Write(&b, binary.BigEndian, uint32(len(entries)))
	for _, e := range entries {
		stat := [10]uint32{1700000000, 0, 1700000000, 0, 0, 0, 0o100644, 0, 0, e.size}
		binary.Write(&b, binary.BigEndian, stat)
		b.Write(e.hash[:])
		binary.Write(&b, binary.BigEndian, uint16(min(len(e.name), 0xfff)))
		b.WriteString(e.name)
		entryLen := 62 + len(e.name)
		b.Write(make([]byte, 8-entryLen%8)) // 1 to 8 NULs
	}
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	if err := os.WriteFile(filepath.Join(gitDir, "index"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// blobName is the object name of a blob already in a repository.
func blobName(t *testing.T, dir, rev, path string) [20]byte {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		t.Fatal(err)
	}
	c, err := repo.CommitObject(*h)
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.File(path)
	if err != nil {
		t.Fatal(err)
	}
	return f.Hash
}
