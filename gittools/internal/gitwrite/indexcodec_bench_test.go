package gitwrite

import (
	"bytes"
	"crypto/sha1"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// index50k is an index file of n entries in 500 directories (the shape of BenchmarkMerge50k's repository),
// written by go-git's encoder in the given version.
func index50k(tb testing.TB, n int, version uint32) []byte {
	tb.Helper()
	idx := &index.Index{Version: version}
	t0 := time.Unix(1_700_000_000, 123456789)
	for i := range n {
		var h plumbing.Hash
		copy(h[:], fmt.Sprintf("%020d", i))
		idx.Entries = append(idx.Entries, &index.Entry{
			Name: fmt.Sprintf("dir%03d/sub/file%05d.txt", i%500, i), Hash: h, Mode: filemode.Regular,
			CreatedAt: t0, ModifiedAt: t0, Dev: 2049, Inode: uint32(1000 + i), UID: 1000, GID: 1000, Size: uint32(i % 4096),
		})
	}
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(idx); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkIndexLoadSave50k loads and saves (to bytes; the file write is the same either way) a 50,000-entry
// index with grove's codec and with the go-git codec it replaced (gitfmt's check, then go-git's decoder;
// go-git's encoder), the four interleaved in each iteration so that a shared machine's load falls on both
// alike. It reports the median wall and CPU time of each, in ms, and go-git's over grove's:
//
//	go test ./gittools/internal/gitwrite -run '^$' -bench IndexLoadSave50k -benchtime 20x
func BenchmarkIndexLoadSave50k(b *testing.B) {
	for _, version := range []uint32{2, 4} {
		b.Run(fmt.Sprintf("v%d", version), func(b *testing.B) {
			data := index50k(b, 50_000, version)
			ops := []struct {
				name string
				run  func(ix *IndexFile) *IndexFile
			}{
				{"grove-load", func(*IndexFile) *IndexFile {
					ix, err := DecodeIndex(data)
					if err != nil {
						b.Fatal(err)
					}
					return ix
				}},
				{"gogit-load", func(*IndexFile) *IndexFile { return goGitLoad(b, data) }},
				{"grove-save", func(ix *IndexFile) *IndexFile {
					ix.Set(&index.Entry{Name: "dir001/sub/new.txt", Mode: filemode.Regular}) // a change, as a tool makes
					if _, err := ix.Encode(); err != nil {
						b.Fatal(err)
					}
					return ix
				}},
				{"gogit-save", func(ix *IndexFile) *IndexFile {
					ix.Set(&index.Entry{Name: "dir001/sub/new.txt", Mode: filemode.Regular})
					goGitEncode(b, ix)
					return ix
				}},
			}
			wall := make([][]time.Duration, len(ops))
			cpu := make([][]time.Duration, len(ops))
			for b.Loop() {
				var ix *IndexFile
				for k, op := range ops {
					if k == 2 || k == 3 {
						ix = ops[0].run(nil) // each save starts from a fresh load of grove's, untimed
					}
					runtime.GC()
					start, c := time.Now(), cpuTime()
					op.run(ix)
					wall[k] = append(wall[k], time.Since(start))
					cpu[k] = append(cpu[k], cpuTime()-c)
				}
			}
			for k, op := range ops {
				b.ReportMetric(ms(median(wall[k])), op.name+"-ms")
				b.ReportMetric(ms(median(cpu[k])), op.name+"-cpu-ms")
			}
			b.ReportMetric(ms(median(wall[1]))/ms(median(wall[0])), "gogit/grove-load")
			b.ReportMetric(ms(median(wall[3]))/ms(median(wall[2])), "gogit/grove-save")
		})
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// goGitLoad is LoadIndex's decoding before grove's codec: gitfmt's check, go-git's decoder, the name maps.
func goGitLoad(b *testing.B, data []byte) *IndexFile {
	if _, err := gitfmt.ParseWritableIndex(data, "index"); err != nil {
		b.Fatal(err)
	}
	idx := &index.Index{}
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(idx); err != nil {
		b.Fatal(err)
	}
	ix := &IndexFile{Idx: idx}
	ix.ReplaceAll(idx.Entries)
	return ix
}

// goGitEncode is Encode before grove's codec: every entry sorted from the name map, go-git's encoder.
func goGitEncode(b *testing.B, ix *IndexFile) []byte {
	all := make([]*index.Entry, 0, len(ix.ByName))
	for _, es := range ix.ByName {
		all = append(all, es...)
	}
	slicesSortEntries(all)
	ix.Idx.Entries = all
	ix.Idx.Cache, ix.Idx.ResolveUndo, ix.Idx.EndOfIndexEntry = nil, nil, nil
	var buf bytes.Buffer
	if err := index.NewEncoder(&buf).Encode(ix.Idx); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// TestIndexCodecAgreesWithGoGit: on go-git's encoding of 2,000 entries, grove's decoder sees the same entries
// as go-git's, and grove's encoder writes the same bytes back.
func TestIndexCodecAgreesWithGoGit(t *testing.T) {
	for _, version := range []uint32{2, 3, 4} {
		data := index50k(t, 2_000, version)
		ix, err := DecodeIndex(data)
		if err != nil {
			t.Fatal(err)
		}
		var want index.Index
		if err := index.NewDecoder(bytes.NewReader(data)).Decode(&want); err != nil {
			t.Fatal(err)
		}
		got := ix.All()
		if len(got) != len(want.Entries) {
			t.Fatalf("v%d: %d entries, go-git %d", version, len(got), len(want.Entries))
		}
		for i, e := range got {
			if *e != *want.Entries[i] {
				t.Fatalf("v%d entry %d:\n grove  %+v\n go-git %+v", version, i, *e, *want.Entries[i])
			}
		}
		out, err := ix.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if version == 3 {
			// No entry needs extended flags, so grove writes version 2, as git would; only the header differs.
			data = bytes.Clone(data)
			data[7] = 2
			sum := sha1.Sum(data[:len(data)-sha1.Size])
			copy(data[len(data)-sha1.Size:], sum[:])
		}
		if !bytes.Equal(out, data) {
			t.Errorf("v%d: grove's encoding differs from go-git's (%d and %d bytes)", version, len(out), len(data))
		}
	}
}

func slicesSortEntries(es []*index.Entry) { slices.SortFunc(es, compareEntries) }
