package packread

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/gittools/internal/gittest"
)

func noLimit(Type) int64 { return 1 << 30 }

// oracleObject is an object as git cat-file --batch shows it.
type oracleObject struct {
	Type string
	Data string
}

// catAll lists every object of the repository with the git program.
func catAll(t *testing.T, f *gittest.Fixture) map[string]oracleObject {
	t.Helper()
	cmd := f.Cmd("cat-file", "--batch-all-objects", "--batch")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	objs := map[string]oracleObject{}
	br := bufio.NewReader(bytes.NewReader(out))
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		fields := strings.Fields(line)
		size, _ := strconv.Atoi(fields[2])
		data := make([]byte, size+1)
		if _, err := io.ReadFull(br, data); err != nil {
			t.Fatal(err)
		}
		objs[fields[0]] = oracleObject{Type: fields[1], Data: string(data[:size])}
	}
	return objs
}

// deltaRepo makes a repository whose objects delta well: files and directories edited over many commits.
func deltaRepo(t *testing.T) *gittest.Fixture {
	f := gittest.New(t)
	var lines []string
	for i := range 300 {
		lines = append(lines, fmt.Sprintf("line %d of a file that changes a little at a time", i))
	}
	for c := range 40 {
		lines[(c*37)%len(lines)] = fmt.Sprintf("changed in commit %d", c)
		body := strings.Join(lines, "\n") + "\n"
		files := []string{"a.txt", body, "dir/b.txt", strings.ToUpper(body)}
		for d := range 12 {
			files = append(files, fmt.Sprintf("dir/sub%02d/f.txt", d), fmt.Sprintf("%d %d\n", d, c/(d+1)))
		}
		f.Write(files...)
		f.Commit(fmt.Sprintf("commit %d", c))
	}
	return f
}

// packInto writes every object of f with git pack-objects into a new directory, with extra flags.
func packInto(t *testing.T, f *gittest.Fixture, flags ...string) string {
	t.Helper()
	list := f.Git("rev-list", "--objects", "--all")
	dir := t.TempDir()
	args := append([]string{"pack-objects", "-q", "--window=50", "--depth=50"}, flags...)
	cmd := f.Cmd(append(args, filepath.Join(dir, "pack"))...)
	cmd.Stdin = strings.NewReader(list)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pack-objects: %v\n%s", err, out)
	}
	return dir
}

// typeCounts counts the entry types of every object in r's packs.
func typeCounts(t *testing.T, r *Reader) map[Type]int {
	t.Helper()
	counts := map[Type]int{}
	for _, p := range r.packs {
		for i := range p.idx.n {
			off, err := p.idx.offset(i)
			if err != nil {
				t.Fatal(err)
			}
			h, err := r.header(p, off)
			if err != nil {
				t.Fatal(err)
			}
			counts[h.typ]++
		}
	}
	return counts
}

// TestReadMatchesGit reads every object of a delta-heavy repository from packs written by git in each
// layout and compares it with git cat-file.
func TestReadMatchesGit(t *testing.T) {
	f := deltaRepo(t)
	f.Git("repack", "-adfq", "--depth=50", "--window=50")
	want := catAll(t, f)
	tests := []struct {
		name  string
		dir   string
		check func(r *Reader) error
	}{
		{"repack, OFS_DELTA", filepath.Join(f.Dir, ".git", "objects", "pack"), func(r *Reader) error {
			if c := typeCounts(t, r); c[ofsDelta] == 0 {
				return fmt.Errorf("no OFS_DELTA objects: %v", c)
			}
			return nil
		}},
		{"REF_DELTA", packInto(t, f), func(r *Reader) error {
			if c := typeCounts(t, r); c[refDelta] == 0 || c[ofsDelta] != 0 {
				return fmt.Errorf("want only REF_DELTA deltas: %v", c)
			}
			return nil
		}},
		{"64-bit offsets", packInto(t, f, "--delta-base-offset", "--index-version=2,0x100"), func(r *Reader) error {
			if r.packs[0].idx.n64 == 0 {
				return errors.New("no 8-byte offsets in the index")
			}
			return nil
		}},
	}
	for _, mapped := range []bool{true, false} {
		mapFiles = mapped
		t.Cleanup(func() { mapFiles = true })
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s, mapped %v", tt.name, mapped), func(t *testing.T) { readAllMatch(t, tt.dir, tt.check, want) })
		}
	}
}

// readAllMatch reads every object of want from the packs in dir and compares it with want.
func readAllMatch(t *testing.T, dir string, check func(r *Reader) error, want map[string]oracleObject) {
	r := Open(dir)
	defer r.Close()
	if err := r.Load(); err != nil {
		t.Fatal(err)
	}
	if len(r.packs) != 1 {
		t.Fatalf("%d packs, want 1", len(r.packs))
	}
	if r.packs[0].data != nil && !mapFiles {
		t.Fatal("the pack is mapped with mapping off")
	}
	if err := check(r); err != nil {
		t.Fatal(err)
	}
	got := map[string]oracleObject{}
	for name := range want {
		var n [20]byte
		hex.Decode(n[:], []byte(name))
		typ, data, err := r.Read(n, noLimit)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got[name] = oracleObject{Type: typ.String(), Data: string(data)}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("objects differ from git cat-file (-git +packread):\n%s", diff)
	}
	var missing [20]byte
	missing[0] = 0xff
	if _, _, err := r.Read(missing, noLimit); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing object: err = %v, want ErrNotFound", err)
	}
}

// TestLimit refuses an object over the caller's limit before inflating it, also when the size is a
// delta's target size.
func TestLimit(t *testing.T) {
	base := strings.Repeat("base content ", 10)
	objs := []synthObj{
		{name: 1, typ: Blob, data: []byte(base), declared: -1, base: -1},
		{name: 2, typ: ofsDelta, data: deltaData(len(base), 200, copyOp(0, 100), copyOp(0, 100)), declared: -1, base: 0},
	}
	p, x := buildPack(t, objs, false)
	dir := writePack(t, p, x)
	r := Open(dir)
	defer r.Close()
	limit := func(Type) int64 { return 150 }
	for _, tt := range []struct {
		name byte
		want int64
	}{{1, 0}, {2, 200}} {
		_, data, err := r.Read(synthName(tt.name), limit)
		var tl *TooLargeError
		if tt.want == 0 {
			if err != nil || string(data) != base {
				t.Errorf("object %d: %q, %v", tt.name, data, err)
			}
			continue
		}
		if !errors.As(err, &tl) || tl.Size != tt.want {
			t.Errorf("object %d: err = %v, want TooLargeError of %d bytes", tt.name, err, tt.want)
		}
	}
}

// TestCorrupt reads broken packs and indexes: each is an error (never a panic or a hang), and the
// reader still answers for the other objects.
func TestCorrupt(t *testing.T) {
	base := "0123456789abcdefghij"
	good := func() []synthObj {
		return []synthObj{
			{name: 1, typ: Blob, data: []byte(base), declared: -1, base: -1},
			{name: 2, typ: ofsDelta, data: deltaData(len(base), 8, copyOp(2, 4), insertOp("WXYZ")), declared: -1, base: 0},
		}
	}
	tests := []struct {
		name   string
		objs   func() []synthObj
		mutate func(pack, idx []byte) ([]byte, []byte)
		read   byte // the object read
		want   string
	}{
		{"sound", good, nil, 2, "2345WXYZ"},
		{"truncated idx", good, func(p, x []byte) ([]byte, []byte) { return p, x[:len(x)/2] }, 2, "truncated index"},
		{"idx size disagrees with its count", good, func(p, x []byte) ([]byte, []byte) { return p, x[:len(x)-8] }, 2, "index of"},
		{"fanout decreases", good, func(p, x []byte) ([]byte, []byte) {
			binary := x[idxHeader+4*10 : idxHeader+4*11]
			copy(binary, []byte{0, 0, 0, 9})
			return p, x
		}, 2, "fanout table decreases"},
		{"offset past the pack", good, func(p, x []byte) ([]byte, []byte) {
			off32 := idxHeader + fanoutLen + 2*(hashLen+4)
			copy(x[off32+4:], []byte{0x7f, 0, 0, 0}) // object 2's offset
			return p, x
		}, 2, "offset past the pack"},
		{"64-bit offset index past its table", good, func(p, x []byte) ([]byte, []byte) {
			off32 := idxHeader + fanoutLen + 2*(hashLen+4)
			copy(x[off32+4:], []byte{0x80, 0, 0, 5})
			return p, x
		}, 2, "8-byte offset table"},
		{"copy outside the base", func() []synthObj {
			o := good()
			o[1].data = deltaData(len(base), 8, copyOp(18, 8))
			return o
		}, nil, 2, "copy outside the base"},
		{"source size differs", func() []synthObj {
			o := good()
			o[1].data = deltaData(len(base)+1, 4, copyOp(0, 4))
			return o
		}, nil, 2, "base size differs"},
		{"result longer than declared", func() []synthObj {
			o := good()
			o[1].data = deltaData(len(base), 3, copyOp(0, 4))
			return o
		}, nil, 2, "longer than its declared size"},
		{"instructions after the result", func() []synthObj {
			o := good()
			o[1].data = deltaData(len(base), 4, copyOp(0, 4), insertOp("x"))
			return o
		}, nil, 2, "after the last instruction"},
		{"reserved instruction", func() []synthObj {
			o := good()
			o[1].data = deltaData(len(base), 4, []byte{0})
			return o
		}, nil, 2, "reserved instruction"},
		{"declared size larger", func() []synthObj {
			o := good()
			o[0].declared = 40
			return o
		}, nil, 1, "does not inflate"},
		{"declared size smaller", func() []synthObj {
			o := good()
			o[0].declared = 5
			return o
		}, nil, 1, "does not inflate"},
		{"delta data size lies", func() []synthObj {
			o := good()
			o[1].declared = 100
			return o
		}, nil, 2, "size differs from its header"},
		{"REF_DELTA loop", func() []synthObj {
			return []synthObj{
				{name: 1, typ: refDelta, data: deltaData(4, 4, copyOp(0, 4)), declared: -1, refBase: 2, base: -1},
				{name: 2, typ: refDelta, data: deltaData(4, 4, copyOp(0, 4)), declared: -1, refBase: 1, base: -1},
			}
		}, nil, 1, "delta chain longer"},
		{"unknown type", func() []synthObj {
			o := good()
			o[0].typ = 5
			return o
		}, nil, 1, "unknown object type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, x := buildPack(t, tt.objs(), false)
			if tt.mutate != nil {
				p, x = tt.mutate(p, x)
			}
			r := Open(writePack(t, p, x))
			defer r.Close()
			_, data, err := r.Read(synthName(tt.read), noLimit)
			if lerr := r.Load(); lerr != nil && (err == nil || errors.Is(err, ErrNotFound)) {
				err = lerr
			}
			got := string(data)
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %q, want it to contain %q", got, tt.want)
			}
		})
	}
}

// TestNotHere: layouts this reader leaves to others read as ErrNotFound.
func TestNotHere(t *testing.T) {
	objs := []synthObj{{name: 1, typ: Blob, data: []byte("x"), declared: -1, base: -1}}
	p, x := buildPack(t, objs, false)
	v1 := bytes.Clone(x)
	copy(v1, []byte{0, 0, 0, 0}) // version 1 has no magic
	other := bytes.Clone(p)
	copy(other[len(other)-hashLen:], bytes.Repeat([]byte{7}, hashLen)) // the pack was replaced
	tests := []struct {
		name      string
		pack, idx []byte
	}{
		{"index version 1", p, v1},
		{"pack replaced", other, x},
		{"no pack", nil, x},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writePack(t, tt.pack, tt.idx)
			if tt.pack == nil {
				os.Remove(filepath.Join(dir, "pack-1.pack"))
			}
			r := Open(dir)
			defer r.Close()
			if _, _, err := r.Read(synthName(1), noLimit); !errors.Is(err, ErrNotFound) {
				t.Errorf("err = %v, want ErrNotFound", err)
			}
		})
	}
	r := Open(filepath.Join(t.TempDir(), "missing"))
	if _, _, err := r.Read(synthName(1), noLimit); !errors.Is(err, ErrNotFound) || r.Load() != nil {
		t.Errorf("missing directory: err = %v, load %v", err, r.Load())
	}
}

// TestSynthetic64 reads a synthetic pack whose every offset is in the 8-byte table, with a chain of
// OFS_DELTA and REF_DELTA objects.
func TestSynthetic64(t *testing.T) {
	base := "0123456789abcdefghij"
	objs := []synthObj{
		{name: 9, typ: Tree, data: []byte(base), declared: -1, base: -1},
		{name: 3, typ: ofsDelta, data: deltaData(20, 8, copyOp(2, 4), insertOp("WXYZ")), declared: -1, base: 0},
		{name: 5, typ: refDelta, data: deltaData(8, 6, insertOp("<"), copyOp(0, 4), insertOp(">")), declared: -1, refBase: 3, base: -1},
	}
	p, x := buildPack(t, objs, true)
	r := Open(writePack(t, p, x))
	defer r.Close()
	got := map[byte]string{}
	for _, n := range []byte{9, 3, 5} {
		typ, data, err := r.Read(synthName(n), noLimit)
		if err != nil {
			t.Fatal(err)
		}
		got[n] = typ.String() + " " + string(data)
	}
	want := map[byte]string{9: "tree " + base, 3: "tree 2345WXYZ", 5: "tree <2345>"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}
