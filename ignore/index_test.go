package ignore

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/google/go-cmp/cmp"
)

// encodeIndex writes names (sorted) as an index of the given version with
// go-git's encoder.
func encodeIndex(t *testing.T, version uint32, names []string, extended bool) []byte {
	t.Helper()
	idx := &index.Index{Version: version}
	for i, n := range names {
		idx.Entries = append(idx.Entries, &index.Entry{Name: n, Mode: filemode.Regular,
			Hash: plumbing.NewHash(fmt.Sprintf("%040x", i)), SkipWorktree: extended && i%2 == 0})
	}
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(idx); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func indexNames() []string {
	names := []string{"a", "a/b", "a/b/c.txt", "a/bc", "a/c", "b", "b/" + strings.Repeat("x", 5000), "c d", "z/ü"}
	for i := range 300 {
		names = append(names, fmt.Sprintf("d/%03d/file", i))
	}
	return names
}

func TestParseIndex(t *testing.T) {
	names := indexNames()
	for _, tt := range []struct {
		version  uint32
		extended bool
	}{{2, false}, {3, true}, {4, false}, {4, true}} {
		t.Run(fmt.Sprintf("v%d extended=%v", tt.version, tt.extended), func(t *testing.T) {
			data := encodeIndex(t, tt.version, names, tt.extended)
			own, _, err := decodeIndex(data, 20)
			if err != nil {
				t.Fatal(err)
			}
			goGit, err := decodeGoGit(data)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(goGit, own); diff != "" {
				t.Errorf("decodeIndex differs from go-git's decoder (-go-git +ours):\n%s", diff)
			}
		})
	}
}

func TestParseIndexMalformed(t *testing.T) {
	data := encodeIndex(t, 2, indexNames(), false)
	for n := 0; n < len(data); n += 7 {
		parseIndex(data[:n], 20, nil) // must not panic
	}
	if _, err := parseIndex([]byte("DIRC\x00\x00\x00\x09\x00\x00\x00\x00"), 20, nil); err == nil {
		t.Error("parseIndex accepted version 9")
	}
}

func TestTrackedLookup(t *testing.T) {
	tr, err := parseIndex(encodeIndex(t, 2, indexNames(), false), 20, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path          string
		has, hasUnder bool
	}{
		{"a", true, true},
		{"a/b", true, true},
		{"a/b/c.txt", true, false},
		{"a/bc", true, false},
		{"d", false, true},
		{"d/150", false, true},
		{"d/15", false, false},
		{"e", false, false},
		{"c", false, false},
	} {
		if got := tr.has(tt.path); got != tt.has {
			t.Errorf("has(%q) = %v, want %v", tt.path, got, tt.has)
		}
		if got := tr.hasUnder(tt.path); got != tt.hasUnder {
			t.Errorf("hasUnder(%q) = %v, want %v", tt.path, got, tt.hasUnder)
		}
	}
}

func TestVarint(t *testing.T) {
	for _, tt := range []struct {
		in   []byte
		want uint64
		n    int
	}{
		{[]byte{0}, 0, 1},
		{[]byte{0x7f}, 127, 1},
		{[]byte{0x80, 0x00}, 128, 2},
		{[]byte{0x80, 0x7f}, 255, 2},
		{[]byte{0x80}, 0, 0},
		{nil, 0, 0},
	} {
		if got, n := varint(tt.in); got != tt.want || n != tt.n {
			t.Errorf("varint(%x) = %d, %d; want %d, %d", tt.in, got, n, tt.want, tt.n)
		}
	}
}

// encodeRawV2 encodes names as a version 2 index by hand, with hashes of
// hashSize bytes (32 in SHA-256 repositories, which go-git cannot write).
func encodeRawV2(names []string, hashSize int) []byte {
	var b bytes.Buffer
	b.WriteString("DIRC")
	b.Write([]byte{0, 0, 0, 2})
	b.Write([]byte{0, 0, 0, byte(len(names))})
	for _, n := range names {
		start := b.Len()
		b.Write(make([]byte, 40+hashSize))
		l := min(len(n), 0xfff)
		b.Write([]byte{byte(l >> 8), byte(l)})
		b.WriteString(n)
		for pad := 8 - (b.Len()-start)%8; pad > 0; pad-- {
			b.WriteByte(0)
		}
	}
	return b.Bytes()
}

func TestParseIndexSHA256(t *testing.T) {
	names := []string{"a", "b/c", "d/" + strings.Repeat("e", 4200), "f"}
	got, _, err := decodeIndex(encodeRawV2(names, 32), 32)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(names, got); diff != "" {
		t.Errorf("decodeIndex (-want +got):\n%s", diff)
	}
}

func TestParseSplitIndex(t *testing.T) {
	shared := encodeIndex(t, 2, []string{"a", "c", "d/e"}, false)
	split := encodeIndex(t, 2, []string{"b", "c"}, false)
	hash := bytes.Repeat([]byte{0xab}, 20)
	split = append(split[:len(split)-20], "link\x00\x00\x00\x14"...)
	split = append(split, hash...)
	split = append(split, make([]byte, 20)...) // checksum, not verified
	var asked string
	tr, err := parseIndex(split, 20, func(name string) []byte {
		asked = name
		return shared
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "sharedindex." + strings.Repeat("ab", 20); asked != want {
		t.Errorf("read shared index %q, want %q", asked, want)
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "d/e"}, tr.paths); diff != "" {
		t.Errorf("tracked paths (-want +got):\n%s", diff)
	}
}
