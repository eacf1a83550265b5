package merge

// Rename detection on one side: files the side deleted paired with files it added, first where the content
// is identical, then where it is similar enough (git's default: at least half the content unchanged).

import (
	"cmp"
	"context"
	"path"
	"slices"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/grove-mcp/grove/internal/linediff"
)

// maxRenameMatrix bounds the deleted x added pairs compared for inexact renames (git's default rename limit
// of 7,000 files per side, squared, is far more than a merge here can afford; this is 1,000 x 1,000).
const maxRenameMatrix = 1_000_000

// renameable reports whether an entry can take part in rename detection: regular files and symlinks.
func renameable(e Entry) bool {
	return e.Present() && e.Mode != filemode.Submodule
}

// sameType reports whether two entries are of a kind that can be renamed into one another.
func sameType(a, b Entry) bool {
	return (a.Mode == filemode.Symlink) == (b.Mode == filemode.Symlink)
}

// renames returns side's renames as source -> destination.
func (m *merger) renames(ctx context.Context, side int) (map[string]string, error) {
	var dels, adds []string
	for p, tr := range m.c.files {
		b, s := tr[0], tr[side]
		switch {
		case renameable(b) && !s.Present():
			dels = append(dels, p)
		case renameable(s) && !b.Present():
			adds = append(adds, p)
		}
	}
	out := map[string]string{}
	if len(dels) == 0 || len(adds) == 0 {
		return out, nil
	}
	slices.Sort(dels)
	slices.Sort(adds)
	dels, adds = m.exactRenames(side, dels, adds, out)
	if len(dels) == 0 || len(adds) == 0 || len(dels)*len(adds) > maxRenameMatrix {
		return out, nil
	}
	return out, m.similarRenames(ctx, side, dels, adds, out)
}

// exactRenames pairs deletions and additions of the same blob, a same-named file first; it returns what is
// left unpaired.
func (m *merger) exactRenames(side int, dels, adds []string, out map[string]string) ([]string, []string) {
	byHash := map[string][]string{}
	for _, a := range adds {
		e := m.c.files[a][side]
		byHash[e.Hash.String()] = append(byHash[e.Hash.String()], a)
	}
	used := map[string]bool{}
	var leftDels []string
	for _, d := range dels {
		b := m.c.files[d][0]
		cands := byHash[b.Hash.String()]
		best := ""
		for _, a := range cands {
			if used[a] || !sameType(b, m.c.files[a][side]) {
				continue
			}
			if best == "" || path.Base(a) == path.Base(d) && path.Base(best) != path.Base(d) {
				best = a
			}
		}
		if best == "" {
			leftDels = append(leftDels, d)
			continue
		}
		used[best] = true
		out[d] = best
	}
	var leftAdds []string
	for _, a := range adds {
		if !used[a] {
			leftAdds = append(leftAdds, a)
		}
	}
	return leftDels, leftAdds
}

type pairScore struct {
	del, add string
	score    float64
	sameName bool
}

// similarRenames pairs the remaining deletions and additions by content similarity, best pairs first.
func (m *merger) similarRenames(ctx context.Context, side int, dels, adds []string, out map[string]string) error {
	profiles := map[string]linediff.Profile{}
	prof := func(p string, e Entry) (linediff.Profile, bool) {
		key := p + "\x00" + e.Hash.String()
		if pr, ok := profiles[key]; ok {
			return pr, true
		}
		data, err := m.s.Blob(e.Hash)
		if err != nil {
			return linediff.Profile{}, false
		}
		pr := linediff.NewProfile(data)
		profiles[key] = pr
		return pr, true
	}
	threshold := m.opts.RenameThreshold
	if threshold <= 0 {
		threshold = 0.5
	}
	var pairs []pairScore
	for _, a := range adds {
		if err := ctx.Err(); err != nil {
			return err
		}
		ae := m.c.files[a][side]
		pa, ok := prof(a, ae)
		if !ok {
			continue
		}
		for _, d := range dels {
			de := m.c.files[d][0]
			if !sameType(de, ae) {
				continue
			}
			pd, ok := prof(d, de)
			if !ok {
				continue
			}
			lo, hi := min(pd.Size(), pa.Size()), max(pd.Size(), pa.Size())
			if hi > 0 && float64(lo)/float64(hi) < threshold {
				continue // too different in size to be half the same
			}
			if sc := linediff.Similarity(pd, pa); sc >= threshold {
				pairs = append(pairs, pairScore{del: d, add: a, score: sc, sameName: path.Base(a) == path.Base(d)})
			}
		}
	}
	slices.SortStableFunc(pairs, func(x, y pairScore) int {
		if x.score != y.score {
			return cmp.Compare(y.score, x.score)
		}
		if x.sameName != y.sameName {
			if x.sameName {
				return -1
			}
			return 1
		}
		return 0
	})
	usedD, usedA := map[string]bool{}, map[string]bool{}
	for _, p := range pairs {
		if usedD[p.del] || usedA[p.add] {
			continue
		}
		usedD[p.del], usedA[p.add] = true, true
		out[p.del] = p.add
	}
	return nil
}
