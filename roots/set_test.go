package roots_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/roots"
)

const setTree = `
-- ceil/proj/a.txt --
A
-- ceil/proj/sub/b.txt --
B
-- ceil/other/c.txt --
C
-- ceil/top.txt --
TOP
-- outside/o.txt --
O
`

// setTmp builds setTree with two links: ceil/link-out -> outside and
// ceil/link-in -> ceil/proj. It returns the real temporary directory.
func setTmp(t *testing.T) string {
	t.Helper()
	tmp := realTempDir(t)
	writeTree(t, tmp, setTree)
	symlink(t, filepath.Join(tmp, "outside"), filepath.Join(tmp, "ceil", "link-out"))
	symlink(t, "proj", filepath.Join(tmp, "ceil", "link-in"))
	symlink(t, "/", filepath.Join(tmp, "slash"))
	return tmp
}

// summary is what a policy test compares of a Root; $TMP stands for the
// temporary directory.
type summary struct {
	Path   string
	Source roots.Source
	File   bool
}

func summarize(rs []roots.Root, tmp string) []summary {
	var out []summary
	for _, r := range rs {
		p := r.Path
		if rel, err := filepath.Rel(tmp, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = "$TMP/" + filepath.ToSlash(rel)
		}
		out = append(out, summary{p, r.Source, r.File})
	}
	return out
}

// clientRoots turns "$TMP/x" (the URI of the temporary directory followed by
// /x as written) or literal URIs into client roots.
func clientRoots(tmp string, uris ...string) []roots.ClientRoot {
	var out []roots.ClientRoot
	for _, u := range uris {
		if p, ok := strings.CutPrefix(u, "$TMP"); ok {
			u = roots.URI(tmp) + p
		}
		out = append(out, roots.ClientRoot{URI: u})
	}
	return out
}

func TestSetPolicy(t *testing.T) {
	tmp := setTmp(t)
	for _, tt := range []struct {
		name        string
		ceiling     []string // "$TMP/x" or literal paths
		client      []string // nil: SetClient is not called
		want        []summary
		wantDropped []string // substrings, one per dropped root
		reach       []string // "$TMP/x" paths that must be readable
		noReach     []string // "$TMP/x" paths that must be not found
	}{{
		name:    "ceiling only",
		ceiling: []string{"$TMP/ceil"},
		want:    []summary{{"$TMP/ceil", roots.Flag, false}},
		reach:   []string{"$TMP/ceil/top.txt", "$TMP/ceil/proj/a.txt"},
		noReach: []string{"$TMP/outside/o.txt", "$TMP/ceil/link-out/o.txt"},
	}, {
		name:    "client inside ceiling narrows",
		ceiling: []string{"$TMP/ceil"},
		client:  []string{"$TMP/ceil/proj"},
		want:    []summary{{"$TMP/ceil/proj", roots.Client, false}},
		reach:   []string{"$TMP/ceil/proj/a.txt", "$TMP/ceil/proj/sub/b.txt"},
		noReach: []string{"$TMP/ceil/top.txt", "$TMP/ceil/other/c.txt", "$TMP/ceil/proj/../top.txt", "$TMP/outside/o.txt"},
	}, {
		name:        "client outside every ceiling root is dropped",
		ceiling:     []string{"$TMP/ceil"},
		client:      []string{"$TMP/outside"},
		wantDropped: []string{"not inside any --root directory, or missing"},
		noReach:     []string{"$TMP/outside/o.txt", "$TMP/ceil/top.txt"},
	}, {
		name:        "only the outside client root is dropped",
		ceiling:     []string{"$TMP/ceil"},
		client:      []string{"$TMP/outside", "$TMP/ceil/other"},
		want:        []summary{{"$TMP/ceil/other", roots.Client, false}},
		wantDropped: []string{"not inside any --root directory, or missing"},
		reach:       []string{"$TMP/ceil/other/c.txt"},
		noReach:     []string{"$TMP/outside/o.txt", "$TMP/ceil/proj/a.txt"},
	}, {
		name:    "client containing the ceiling gives the ceiling root",
		ceiling: []string{"$TMP/ceil/proj"},
		client:  []string{"$TMP"},
		want:    []summary{{"$TMP/ceil/proj", roots.Flag, false}},
		reach:   []string{"$TMP/ceil/proj/a.txt"},
		noReach: []string{"$TMP/ceil/top.txt", "$TMP/outside/o.txt"},
	}, {
		name:    "client containing two ceiling roots gives both",
		ceiling: []string{"$TMP/ceil/proj", "$TMP/outside"},
		client:  []string{"file:///"},
		want:    []summary{{"$TMP/ceil/proj", roots.Flag, false}, {"$TMP/outside", roots.Flag, false}},
		reach:   []string{"$TMP/ceil/proj/a.txt", "$TMP/outside/o.txt"},
		noReach: []string{"$TMP/ceil/top.txt"},
	}, {
		name:        "filesystem root refused without a ceiling",
		client:      []string{"file:///"},
		wantDropped: []string{"filesystem root"},
		noReach:     []string{"$TMP/ceil/top.txt"},
	}, {
		name:        "symlink to the filesystem root refused without a ceiling",
		client:      []string{"$TMP/slash"},
		wantDropped: []string{"filesystem root"},
		noReach:     []string{"$TMP/ceil/top.txt"},
	}, {
		name:    "filesystem root allowed when the operator passed it",
		ceiling: []string{"/"},
		client:  []string{"file:///"},
		want:    []summary{{"/", roots.Client, false}},
		reach:   []string{"$TMP/ceil/top.txt", "$TMP/outside/o.txt"},
	}, {
		name:    "without a ceiling client roots are the scope",
		client:  []string{"$TMP/ceil/proj", "$TMP/outside"},
		want:    []summary{{"$TMP/ceil/proj", roots.Client, false}, {"$TMP/outside", roots.Client, false}},
		reach:   []string{"$TMP/ceil/proj/a.txt", "$TMP/outside/o.txt"},
		noReach: []string{"$TMP/ceil/top.txt"},
	}, {
		name:    "empty client list narrows nothing",
		ceiling: []string{"$TMP/ceil"},
		client:  []string{},
		want:    []summary{{"$TMP/ceil", roots.Flag, false}},
		reach:   []string{"$TMP/ceil/top.txt"},
	}, {
		name:        "client symlink pointing outside the ceiling is dropped",
		ceiling:     []string{"$TMP/ceil"},
		client:      []string{"$TMP/ceil/link-out"},
		wantDropped: []string{"not inside any --root directory, or missing"},
		noReach:     []string{"$TMP/outside/o.txt", "$TMP/ceil/link-out/o.txt"},
	}, {
		name:    "client symlink inside the ceiling becomes its target",
		ceiling: []string{"$TMP/ceil"},
		client:  []string{"$TMP/ceil/link-in"},
		want:    []summary{{"$TMP/ceil/proj", roots.Client, false}},
		reach:   []string{"$TMP/ceil/proj/a.txt"},
		noReach: []string{"$TMP/ceil/top.txt"},
	}, {
		name:    "client file inside the ceiling is a single-file root",
		ceiling: []string{"$TMP/ceil"},
		client:  []string{"$TMP/ceil/proj/a.txt"},
		want:    []summary{{"$TMP/ceil/proj/a.txt", roots.Client, true}},
		reach:   []string{"$TMP/ceil/proj/a.txt"},
		noReach: []string{"$TMP/ceil/proj/sub/b.txt", "$TMP/ceil/top.txt"},
	}, {
		name:    "client directory holding a single-file ceiling root",
		ceiling: []string{"$TMP/ceil/top.txt"},
		client:  []string{"$TMP/ceil"},
		want:    []summary{{"$TMP/ceil/top.txt", roots.Flag, true}},
		reach:   []string{"$TMP/ceil/top.txt"},
		noReach: []string{"$TMP/ceil/proj/a.txt"},
	}, {
		name:        "client sibling of a single-file ceiling root is dropped",
		ceiling:     []string{"$TMP/ceil/top.txt"},
		client:      []string{"$TMP/ceil/proj"},
		wantDropped: []string{"not inside any --root directory, or missing"},
		noReach:     []string{"$TMP/ceil/proj/a.txt", "$TMP/ceil/top.txt"},
	}, {
		name:    "duplicate client roots appear once",
		ceiling: []string{"$TMP/ceil"},
		client:  []string{"$TMP/ceil/proj", "$TMP/ceil/proj/", "$TMP/ceil/link-in"},
		want:    []summary{{"$TMP/ceil/proj", roots.Client, false}},
	}, {
		// No existence oracle: a missing path outside the ceiling, and one
		// behind an inside symlink that leads outside, read like an
		// existing outside directory.
		name:        "missing and existing outside roots read alike",
		ceiling:     []string{"$TMP/ceil"},
		client:      []string{"$TMP/outside", "$TMP/no-such-dir", "$TMP/ceil/link-out/no-such-file"},
		wantDropped: []string{"not inside any --root directory, or missing", "not inside any --root directory, or missing", "not inside any --root directory, or missing"},
	}, {
		name:        "bad client roots are dropped",
		ceiling:     []string{"$TMP/ceil"},
		client:      []string{"$TMP/ceil/nope", "http://x/ceil", "file://evil/ceil", "$TMP/ceil/proj?x", "$TMP/ceil/proj"},
		want:        []summary{{"$TMP/ceil/proj", roots.Client, false}},
		wantDropped: []string{"not inside any --root directory, or missing", "only file://", "not this machine", "queries"},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			var ceiling []string
			for _, c := range tt.ceiling {
				ceiling = append(ceiling, strings.Replace(c, "$TMP", tmp, 1))
			}
			set, err := roots.NewSet(ceiling, nil)
			if err != nil {
				t.Fatal(err)
			}
			sc := set.Scope()
			if tt.client != nil {
				sc = set.SetClient(clientRoots(tmp, tt.client...))
			}
			if diff := cmp.Diff(tt.want, summarize(sc.Roots(), tmp)); diff != "" {
				t.Errorf("Roots() mismatch (-want +got):\n%s", diff)
			}
			if got, want := sc.Empty(), len(tt.want) == 0; got != want {
				t.Errorf("Empty() = %v, want %v", got, want)
			}
			if diff := cmp.Diff(summarize(sc.Roots(), tmp), summarize(set.Scope().Roots(), tmp)); diff != "" {
				t.Errorf("set.Scope() differs from the scope SetClient returned (-returned +Scope):\n%s", diff)
			}
			checkDropped(t, set.Dropped(), tt.wantDropped)
			checkReach(t, sc, tmp, tt.reach, tt.noReach)
		})
	}
}

func checkDropped(t *testing.T, dropped, want []string) {
	t.Helper()
	if len(dropped) != len(want) {
		t.Errorf("Dropped() = %q, want %d entries containing %q", dropped, len(want), want)
		return
	}
	for i, w := range want {
		if !strings.Contains(dropped[i], w) {
			t.Errorf("Dropped()[%d] = %q, want it to contain %q", i, dropped[i], w)
		}
	}
}

// checkReach reads every path of reach and expects not-found for noReach,
// both as absolute paths and as URIs.
func checkReach(t *testing.T, sc *roots.Scope, tmp string, reach, noReach []string) {
	t.Helper()
	for _, p := range reach {
		abs := strings.Replace(p, "$TMP", tmp, 1)
		for _, input := range []string{abs, roots.URI(abs)} {
			if _, err := resolveAndRead(t, sc, input); err != nil {
				t.Errorf("%s: %v, want it readable", input, err)
			}
		}
	}
	for _, p := range noReach {
		abs := strings.Replace(p, "$TMP", tmp, 1)
		for _, input := range []string{abs, roots.URI(abs)} {
			got, err := resolveAndRead(t, sc, input)
			if err == nil {
				t.Errorf("%s read %q, want not found", input, got)
				continue
			}
			if pub := roots.PublicError(input, err); !errors.Is(pub, roots.ErrNotFound) {
				t.Errorf("%s: %v, want ErrNotFound", input, pub)
			}
		}
	}
}
