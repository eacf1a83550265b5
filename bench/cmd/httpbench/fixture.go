package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// fixture is the root both transports serve: a committed repository of
// files spread over directories, one of them 4 KiB, and a few changes for
// git_status to report.
type fixture struct {
	root  string
	read  string // the 4 KiB file
	files int
}

const (
	fixtureDirs    = 20
	fixturePerDir  = 50
	readFileBytes  = 4 << 10
	changedFiles   = 5
	untrackedFiles = 3
)

func makeFixture(dir string) (fixture, error) {
	fx := fixture{root: filepath.Join(dir, "root")}
	for d := range fixtureDirs {
		sub := filepath.Join(fx.root, fmt.Sprintf("pkg%02d", d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return fx, err
		}
		for f := range fixturePerDir {
			text := fmt.Sprintf("package pkg%02d\n\n// file %d\nvar X%d = %d\n", d, f, f, f)
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%03d.go", f)), []byte(text), 0o644); err != nil {
				return fx, err
			}
			fx.files++
		}
	}
	fx.read = filepath.Join(fx.root, "read.txt")
	line := strings.Repeat("x", 63) + "\n"
	if err := os.WriteFile(fx.read, []byte(strings.Repeat(line, readFileBytes/len(line))), 0o644); err != nil {
		return fx, err
	}
	fx.files++
	if err := commit(fx.root); err != nil {
		return fx, err
	}
	for i := range changedFiles {
		p := filepath.Join(fx.root, fmt.Sprintf("pkg%02d", i), "f000.go")
		if err := os.WriteFile(p, []byte("package changed\n"), 0o644); err != nil {
			return fx, err
		}
	}
	for i := range untrackedFiles {
		if err := os.WriteFile(filepath.Join(fx.root, fmt.Sprintf("new%d.txt", i)), []byte("new\n"), 0o644); err != nil {
			return fx, err
		}
	}
	return fx, nil
}

func commit(root string) error {
	repo, err := git.PlainInit(root, false)
	if err != nil {
		return err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return err
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		return err
	}
	sig := &object.Signature{Name: "httpbench", Email: "httpbench@example.com", When: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	_, err = wt.Commit("fixture\n", &git.CommitOptions{Author: sig, Committer: sig})
	return err
}
