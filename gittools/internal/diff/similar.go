package diff

import (
	"context"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/internal/linediff"
)

// Rename detection past exact copies, as `git diff` does by default (diff.renames, gitdiffcore(7)
// "diffcore-rename"): a deleted file and an added one whose contents are at least minSimilarity alike
// are one renamed file. Pairs are taken best score first, each file at most once; equal scores go in
// path order, so the answer is deterministic.

const (
	minSimilarity = 50 // percent, git's default (-M50%)
	// maxRenamePairs bounds the pairs scored (deleted × added files), as git's diff.renameLimit bounds them.
	maxRenamePairs = 1000 * 1000
)

type candidate struct {
	src, dst int // indexes in the changes
	score    int // percent
}

// pairRenames pairs the remaining deletions and additions of cs by content similarity. It reads the
// candidates' blobs (each at most rp.MaxRead; a larger one is not a candidate).
func pairRenames(rp *repo.Repo, ctx context.Context, cs []change) ([]change, error) {
	var srcs, dsts []int
	for i, c := range cs {
		switch {
		case c.oldPath != "" || c.from.wt || c.to.wt:
		case c.from.mode == 0 && renameable(c.to.mode):
			dsts = append(dsts, i)
		case c.to.mode == 0 && renameable(c.from.mode):
			srcs = append(srcs, i)
		}
	}
	if len(srcs) == 0 || len(dsts) == 0 || len(srcs)*len(dsts) > maxRenamePairs {
		return cs, nil
	}
	profiles := map[int]*linediff.Profile{}
	profile := func(i int, e entry) *linediff.Profile {
		if p, ok := profiles[i]; ok {
			return p
		}
		data, size, err := rp.ReadBlobCapped(e.hash, rp.MaxRead)
		if err != nil || int64(len(data)) != size {
			profiles[i] = nil // unreadable or too large: not a candidate
			return nil
		}
		p := linediff.NewProfile(data)
		profiles[i] = &p
		return &p
	}
	var found []candidate
	for _, d := range dsts {
		if err := ctx.Err(); err != nil {
			return cs, err
		}
		dp := profile(d, cs[d].to)
		if dp == nil {
			continue
		}
		for _, s := range srcs {
			if kind(cs[s].from.mode) != kind(cs[d].to.mode) {
				continue
			}
			if size := sizeOf(rp, cs[s].from); !mayReach(size, int64(dp.Size())) {
				continue
			}
			sp := profile(s, cs[s].from)
			if sp == nil {
				continue
			}
			if score := similarity(*sp, *dp); score >= minSimilarity {
				found = append(found, candidate{src: s, dst: d, score: score})
			}
		}
	}
	return applyRenames(cs, found), nil
}

// applyRenames takes the candidates best first and folds each deletion into its addition.
func applyRenames(cs []change, found []candidate) []change {
	if len(found) == 0 {
		return cs
	}
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if a.dst != b.dst {
			return a.dst < b.dst
		}
		return a.src < b.src
	})
	used := map[int]bool{}
	for _, f := range found {
		if used[f.src] || used[f.dst] {
			continue
		}
		used[f.src], used[f.dst] = true, true
		cs[f.dst].oldPath, cs[f.dst].from, cs[f.dst].score = cs[f.src].path, cs[f.src].from, f.score
	}
	out := cs[:0]
	for i, c := range cs {
		if !(used[i] && c.to.mode == 0) {
			out = append(out, c)
		}
	}
	return out
}

func renameable(m filemode.FileMode) bool {
	return m != 0 && m != filemode.Submodule && m != filemode.Dir
}

func kind(m filemode.FileMode) filemode.FileMode {
	if m == filemode.Executable {
		return filemode.Regular
	}
	return m
}

// sizeOf is a blob's size from its header, or -1.
func sizeOf(rp *repo.Repo, e entry) int64 {
	o, err := rp.Git.Storer.EncodedObject(plumbing.BlobObject, e.hash)
	if err != nil {
		return -1
	}
	return o.Size()
}

// mayReach reports whether files of these sizes can be minSimilarity alike: the shared bytes are at most
// the smaller size.
func mayReach(a, b int64) bool {
	if a < 0 {
		return false
	}
	return min(a, b)*100 >= max(a, b)*minSimilarity
}

// similarity is git's similarity index of two contents, in percent rounded down.
func similarity(a, b linediff.Profile) int {
	if a.Size() == 0 && b.Size() == 0 {
		return 100
	}
	return int(linediff.Similarity(a, b)*100 + 1e-9)
}
