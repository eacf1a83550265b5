package roots_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/grove-mcp/grove/roots"
)

func ceilSet(t *testing.T, tmp string) *roots.Set {
	t.Helper()
	set, err := roots.NewSet([]string{filepath.Join(tmp, "ceil")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestNarrowLeavesSessionAlone(t *testing.T) {
	tmp := setTmp(t)
	set := ceilSet(t, tmp)
	session := set.SetClient(clientRoots(tmp, "$TMP/ceil/proj"))
	narrowed, dropped := set.Narrow(clientRoots(tmp, "$TMP/ceil/other", "$TMP/outside"))
	if len(dropped) != 1 || !strings.Contains(dropped[0], "outside") {
		t.Errorf("Narrow dropped %q, want the root outside the ceiling", dropped)
	}

	wantNarrowed := []summary{{"$TMP/ceil/other", roots.Client, false}}
	if diff := cmp.Diff(wantNarrowed, summarize(narrowed.Roots(), tmp)); diff != "" {
		t.Errorf("Narrow().Roots() mismatch (-want +got):\n%s", diff)
	}
	wantSession := []summary{{"$TMP/ceil/proj", roots.Client, false}}
	for name, sc := range map[string]*roots.Scope{"SetClient result": session, "Scope()": set.Scope()} {
		if diff := cmp.Diff(wantSession, summarize(sc.Roots(), tmp)); diff != "" {
			t.Errorf("%s after Narrow mismatch (-want +got):\n%s", name, diff)
		}
	}
	if got := set.Dropped(); len(got) != 0 {
		t.Errorf("Narrow changed Dropped() to %q", got)
	}
	wantCeiling := []summary{{"$TMP/ceil", roots.Flag, false}}
	if diff := cmp.Diff(wantCeiling, summarize(set.Ceiling().Roots(), tmp)); diff != "" {
		t.Errorf("Ceiling() mismatch (-want +got):\n%s", diff)
	}
	checkReach(t, narrowed, tmp, []string{"$TMP/ceil/other/c.txt"}, []string{"$TMP/ceil/proj/a.txt"})
}

func TestSetClientChangesScope(t *testing.T) {
	tmp := setTmp(t)
	set := ceilSet(t, tmp)
	for _, tt := range []struct {
		client []string
		want   []summary
	}{
		{[]string{"$TMP/ceil/proj"}, []summary{{"$TMP/ceil/proj", roots.Client, false}}},
		{[]string{"$TMP/ceil/other"}, []summary{{"$TMP/ceil/other", roots.Client, false}}},
		{[]string{"$TMP/outside"}, nil},
		{nil, []summary{{"$TMP/ceil", roots.Flag, false}}},
		{[]string{"$TMP/ceil/proj", "$TMP/ceil/other"}, []summary{{"$TMP/ceil/proj", roots.Client, false}, {"$TMP/ceil/other", roots.Client, false}}},
	} {
		t.Run(fmt.Sprint(tt.client), func(t *testing.T) {
			set.SetClient(clientRoots(tmp, tt.client...))
			if diff := cmp.Diff(tt.want, summarize(set.Scope().Roots(), tmp)); diff != "" {
				t.Errorf("Scope().Roots() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOldScopeStaysUsable checks that a scope and a Loc taken before the
// client changed its roots keep working: requests in flight finish.
func TestOldScopeStaysUsable(t *testing.T) {
	tmp := setTmp(t)
	set := ceilSet(t, tmp)
	old := set.SetClient(clientRoots(tmp, "$TMP/ceil/proj"))
	loc, err := old.Resolve("sub/b.txt")
	if err != nil {
		t.Fatal(err)
	}
	set.SetClient(clientRoots(tmp, "$TMP/ceil/other"))
	set.SetClient(clientRoots(tmp, "$TMP/outside"))
	if got, err := readLoc(t, loc); err != nil || got != "B\n" {
		t.Errorf("old Loc read %q, %v; want %q", got, err, "B\n")
	}
	if got, err := resolveAndRead(t, old, "a.txt"); err != nil || got != "A\n" {
		t.Errorf("old scope read a.txt %q, %v; want %q", got, err, "A\n")
	}
	if _, err := set.Scope().Resolve(filepath.Join(tmp, "ceil", "proj", "a.txt")); !errors.Is(err, roots.ErrNotFound) {
		t.Errorf("new scope still resolves the old root: %v", err)
	}
}

// TestConcurrentResolveAndSetClient runs readers against the session scope
// while another goroutine flips the client roots. Run with -race.
func TestConcurrentResolveAndSetClient(t *testing.T) {
	tmp := setTmp(t)
	set := ceilSet(t, tmp)
	proj := filepath.Join(tmp, "ceil", "proj", "a.txt")
	other := filepath.Join(tmp, "ceil", "other", "c.txt")
	outside := filepath.Join(tmp, "outside", "o.txt")
	stop := make(chan struct{})
	var flipper sync.WaitGroup
	flipper.Go(func() {
		choices := [][]string{{"$TMP/ceil/proj"}, {"$TMP/ceil/other"}, nil, {"$TMP/outside"}, {"$TMP/ceil/link-in"}}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if i%2 == 0 {
				set.SetClient(clientRoots(tmp, choices[i%len(choices)]...))
			} else {
				_, _ = set.Narrow(clientRoots(tmp, choices[i%len(choices)]...))
			}
		}
	})
	errs := make(chan error, 64)
	var readers sync.WaitGroup
	for range 16 {
		readers.Go(func() {
			for range 200 {
				if err := readOnce(set.Scope(), proj, other, outside); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	readers.Wait()
	close(stop)
	flipper.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// readOnce checks one snapshot: a path is readable exactly when the snapshot
// resolves it, and the outside file never is.
func readOnce(sc *roots.Scope, paths ...string) error {
	for _, p := range paths {
		loc, err := sc.Resolve(p)
		if err != nil {
			if !errors.Is(err, roots.ErrNotFound) {
				return fmt.Errorf("Resolve(%s): %v", p, err)
			}
			continue
		}
		if filepath.Base(p) == "o.txt" {
			return fmt.Errorf("scope %v resolved the outside file", sc.Roots())
		}
		f, _, err := loc.OpenFile()
		if err != nil {
			return fmt.Errorf("OpenFile(%s) in %v: %v", p, sc.Roots(), err)
		}
		f.Close()
	}
	return nil
}

// TestClientRootReplaced checks that announcing a client root again after its
// directory was moved away and recreated reaches the new directory, and not
// the old one at its new place outside the ceiling.
func TestClientRootReplaced(t *testing.T) {
	tmp := setTmp(t)
	set := ceilSet(t, tmp)
	proj := filepath.Join(tmp, "ceil", "proj")
	if got, err := resolveAndRead(t, set.SetClient(clientRoots(tmp, "$TMP/ceil/proj")), "a.txt"); err != nil || got != "A\n" {
		t.Fatalf("before the move: %q, %v", got, err)
	}
	if err := os.Rename(proj, filepath.Join(tmp, "outside", "moved")); err != nil {
		t.Fatal(err)
	}
	writeTree(t, tmp, "-- ceil/proj/a.txt --\nNEW\n")
	sc := set.SetClient(clientRoots(tmp, "$TMP/ceil/proj"))
	if got, err := resolveAndRead(t, sc, filepath.Join(proj, "a.txt")); err != nil || got != "NEW\n" {
		t.Errorf("after the client root was recreated: read %q, %v; want %q", got, err, "NEW\n")
	}
}
