package repo

import (
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/gittest"
	"github.com/grove-mcp/grove/roots"
)

// TestCheckPlainAgreesWithCheckLayout: the plain layout's shortcut takes the layouts it is for, declines every
// other, and CheckRepo decides as the general path (checkLayout) does on each.
func TestCheckPlainAgreesWithCheckLayout(t *testing.T) {
	tests := []struct {
		name      string
		setup     func(t *testing.T, f *gittest.Fixture) string // returns the worktree checked ("" = the fixture)
		wantPlain bool
		want      bool
	}{
		{name: "plain", wantPlain: true, want: true},
		{name: "plain without a config", wantPlain: true, want: true, setup: func(t *testing.T, f *gittest.Fixture) string {
			rm(t, filepath.Join(f.Dir, ".git", "config"))
			return ""
		}},
		{name: "HEAD a symlink", want: true, setup: func(t *testing.T, f *gittest.Fixture) string {
			f.Write("a.txt", "a\n")
			f.Commit("first")
			rm(t, filepath.Join(f.Dir, ".git", "HEAD"))
			link(t, "refs/heads/main", filepath.Join(f.Dir, ".git", "HEAD"))
			return ""
		}},
		{name: "objects symlinked inside the root", want: true, setup: func(t *testing.T, f *gittest.Fixture) string {
			objs := filepath.Join(f.Dir, ".git", "objects")
			if err := os.Rename(objs, filepath.Join(f.Dir, "store")); err != nil {
				t.Fatal(err)
			}
			link(t, filepath.Join("..", "store"), objs)
			return ""
		}},
		{name: "alternates inside the root", want: true, setup: func(t *testing.T, f *gittest.Fixture) string {
			objs := filepath.Join(f.Dir, "store", "objects")
			if err := os.MkdirAll(objs, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(f.Dir, ".git", "objects", "info", "alternates"), objs+"\n")
			return ""
		}},
		{name: "config.worktree", want: true, setup: func(t *testing.T, f *gittest.Fixture) string {
			writeFile(t, filepath.Join(f.Dir, ".git", "config.worktree"), "[core]\n\tsparseCheckout = true\n")
			return ""
		}},
		{name: "core.worktree naming itself", want: true, setup: func(t *testing.T, f *gittest.Fixture) string {
			f.Git("config", "core.worktree", f.Dir)
			return ""
		}},
		{name: "core.worktree elsewhere", want: false, setup: func(t *testing.T, f *gittest.Fixture) string {
			f.Git("config", "core.worktree", filepath.Join(f.Dir, "elsewhere"))
			return ""
		}},
		{name: "config a symlink inside the root", want: true, setup: func(t *testing.T, f *gittest.Fixture) string {
			cfg := filepath.Join(f.Dir, ".git", "config")
			if err := os.Rename(cfg, filepath.Join(f.Dir, "cfg")); err != nil {
				t.Fatal(err)
			}
			link(t, filepath.Join(f.Dir, "cfg"), cfg)
			return ""
		}},
		{name: "config a symlink outside the root", want: false, setup: func(t *testing.T, f *gittest.Fixture) string {
			cfg := filepath.Join(f.Dir, ".git", "config")
			out := filepath.Join(realTempDir(t), "config")
			if err := os.Rename(cfg, out); err != nil {
				t.Fatal(err)
			}
			link(t, out, cfg)
			return ""
		}},
		{name: "config unparsable", want: false, setup: func(t *testing.T, f *gittest.Fixture) string {
			writeFile(t, filepath.Join(f.Dir, ".git", "config"), "[core\n")
			return ""
		}},
		{name: "linked worktree", want: true, setup: func(t *testing.T, f *gittest.Fixture) string {
			f.Write("a.txt", "a\n")
			f.Commit("first")
			f.Git("worktree", "add", "-q", "wt", "-b", "side")
			return filepath.Join(f.Dir, "wt")
		}},
		{name: "a sub directory holding its own .git directory", wantPlain: true, want: true, setup: func(t *testing.T, f *gittest.Fixture) string {
			sub := filepath.Join(f.Dir, "sub")
			f.GitIn(f.Dir, "init", "-q", "-b", "main", sub)
			return sub
		}},
		{name: "the worktree reached through a symlink", want: true, setup: func(t *testing.T, f *gittest.Fixture) string {
			link(t, f.Dir, filepath.Join(f.Dir, "self"))
			return filepath.Join(f.Dir, "self")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := gittest.New(t)
			dir := f.Dir
			if tt.setup != nil {
				if d := tt.setup(t, f); d != "" {
					dir = d
				}
			}
			sc := gittest.Scope(t, f.Dir)
			fi, err := os.Lstat(filepath.Join(dir, ".git"))
			if err != nil {
				t.Fatal(err)
			}
			ms := metaRoots{sc: sc}
			m, _ := ms.of(dir)
			plain, isPlain := checkPlain(m, dir, fi)
			if wantPlain := tt.wantPlain && Inode(fi) != 0; isPlain != wantPlain { // no inodes: never taken
				t.Errorf("checkPlain took it = %t, want %t", isPlain, wantPlain)
			}
			general, ok, _ := checkLayout(ms, m, dir, fi, slog.New(slog.DiscardHandler))
			got, gotOK, _ := CheckRepo(sc, dir, fi, slog.New(slog.DiscardHandler))
			if ok != tt.want || gotOK != tt.want {
				t.Fatalf("accepted: checkLayout %t, CheckRepo %t, want %t", ok, gotOK, tt.want)
			}
			if isPlain {
				plain.seen = nil
				if !reflect.DeepEqual(plain, general) {
					t.Errorf("checkPlain found %+v, checkLayout %+v", plain, general)
				}
			}
			got.seen, got.Loc = nil, general.Loc
			if !reflect.DeepEqual(got, general) {
				t.Errorf("CheckRepo found %+v, checkLayout %+v", got, general)
			}
		})
	}
}

// TestPlainChecksAreVouchsOwn: what checkPlain saw while it decided vouches for a plain repository exactly as
// the stat calls Vouch makes itself would, and a file younger than the racy window vouches for nothing.
func TestPlainChecksAreVouchsOwn(t *testing.T) {
	f := gittest.New(t)
	f.Write("sub/a.txt", "a\n")
	f.Commit("first")
	sc, fi, found, ok := checkFixture(t, f.Dir)
	if Inode(fi) == 0 {
		t.Skip("no inodes here: discoveries are not remembered")
	}
	if !ok || found.seen == nil {
		t.Fatalf("CheckRepo = %+v, %t: want the plain layout's checks", found, ok)
	}
	for _, start := range []string{f.Dir, filepath.Join(f.Dir, "sub"), filepath.Join(f.Dir, "sub", "a.txt")} {
		later := time.Now().Add(2 * RacyWindow) // the fixture's files are young: vouch as if later
		fromSeen, ok := Vouch(sc, start, found, later)
		if !ok {
			t.Fatalf("Vouch(%s) with the seen checks refused", start)
		}
		own := found
		own.seen = nil
		fromStat, ok := Vouch(sc, start, own, later)
		if !ok {
			t.Fatalf("Vouch(%s) refused", start)
		}
		if !reflect.DeepEqual(fromSeen, fromStat) {
			t.Errorf("Vouch(%s): checks from checkPlain\n%+v\nwant those Vouch takes\n%+v", start, fromSeen, fromStat)
		}
	}
	if _, ok := Vouch(sc, f.Dir, found, time.Now()); ok {
		t.Error("Vouch trusted the stat data of files written a moment ago")
	}
}

// TestConfigSwappedBeforeThePlainRead swaps a harmless .git/config for a symlink to a harmless config outside
// the root just before the plain layout's shortcut reads it: the read goes through the .git handle, so the
// symlink leads nowhere, and the general path refuses the repository as it refuses a config linked outside.
func TestConfigSwappedBeforeThePlainRead(t *testing.T) {
	const harmless = "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
	f := gittest.New(t)
	cfg := filepath.Join(f.Dir, ".git", "config")
	writeFile(t, cfg, harmless)
	outside := filepath.Join(realTempDir(t), "config")
	writeFile(t, outside, harmless)
	swapped := false
	testHookBeforeRead = func(p string) {
		if p != cfg || swapped {
			return
		}
		swapped = true
		rm(t, cfg)
		link(t, outside, cfg)
	}
	t.Cleanup(func() { testHookBeforeRead = nil })
	if _, ok := checkRepoAt(t, f.Dir, f.Dir); ok || !swapped {
		t.Errorf("CheckRepo accepted = %t (swapped %t), want refused after the swap", ok, swapped)
	}
}

// TestConfigReadOnceWhileOpening: opening the storage hands the config it read to go-git's check, and Config
// reads the file again afterwards, so a change is seen.
func TestConfigReadOnceWhileOpening(t *testing.T) {
	f := gittest.New(t)
	f.Write("a.txt", "a\n")
	f.Commit("first")
	sc, _, found, ok := checkFixture(t, f.Dir)
	if !ok {
		t.Fatal("CheckRepo refused the fixture")
	}
	rp, opened, err := NewSet().Get(sc, found, Options{MaxRead: 1 << 20})
	if err != nil || !opened {
		t.Fatalf("Get: opened %t, %v", opened, err)
	}
	defer rp.Close()
	if rp.Store.opening != nil {
		t.Error("the config read while opening is still held after the open")
	}
	f.Git("config", "core.fileMode", "false")
	cfg, err := rp.Git.Config()
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Raw.Section("core").Options.Get("filemode"); got != "false" {
		t.Errorf("core.fileMode after the change = %q, want false", got)
	}
}

func rm(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
}

func link(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// checkFixture returns a scope of the repository dir, the lstat of its .git, and what CheckRepo finds there.
func checkFixture(t *testing.T, dir string) (*roots.Scope, os.FileInfo, Found, bool) {
	t.Helper()
	sc := gittest.Scope(t, dir)
	fi, err := os.Lstat(filepath.Join(dir, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	found, ok, _ := CheckRepo(sc, dir, fi, slog.New(slog.DiscardHandler))
	return sc, fi, found, ok
}
