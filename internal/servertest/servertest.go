// Package servertest holds the test helpers that the server's tests and its
// transports' tests share: temporary trees and repositories, the protocol
// eras, the notifications a client records, and the grove binary. It is for
// tests only, and imports no grove package but roots, so that package
// server's own tests can use it.
//
//	dir := servertest.RealTemp(t)
//	servertest.Write(t, filepath.Join(dir, "a.txt"), "a")
//	servertest.CommitAll(t, dir)
package servertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// The protocol eras every feature is tested in: the last legacy revision
// and the first modern one (server.ModernVersion, which a server test
// holds this one to).
const (
	Legacy = "2025-11-25"
	Modern = "2026-07-28"
)

// Eras are [Legacy] and [Modern].
var Eras = []string{Legacy, Modern}

// WaitLimit bounds every wait for something the server sends.
const WaitLimit = 30 * time.Second

// RealTemp is t.TempDir with symlinks resolved (macOS /var -> /private/var).
func RealTemp(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// Mkdirs makes the directories names (and their parents) under base.
func Mkdirs(t testing.TB, base string, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := os.MkdirAll(filepath.Join(base, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// Write writes content to the file path.
func Write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// CommitAll makes dir a repository with one commit of everything in it, by
// a fixed author at a fixed time, so that its hashes never change.
func CommitAll(t testing.TB, dir string) {
	t.Helper()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "Conformance", Email: "conformance@example.com", When: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if _, err := wt.Commit("Initial commit\n", &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
		t.Fatal(err)
	}
}

var buildOnce struct {
	sync.Once
	path string
	err  error
}

// GroveBinary builds the grove command once per test binary and returns its
// path. Under -short it skips the test instead.
func GroveBinary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary; skipped with -short")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "grove-e2e")
		if err != nil {
			buildOnce.err = err
			return
		}
		buildOnce.path = filepath.Join(dir, "grove")
		out, err := exec.Command("go", "build", "-o", buildOnce.path, "github.com/grove-mcp/grove").CombinedOutput()
		if err != nil {
			buildOnce.err = err
			buildOnce.path = string(out)
		}
	})
	if buildOnce.err != nil {
		t.Fatalf("go build: %v\n%s", buildOnce.err, buildOnce.path)
	}
	return buildOnce.path
}
