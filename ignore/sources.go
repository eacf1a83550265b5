package ignore

import (
	"bytes"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// repo describes the git directory of a worktree, as slash paths relative
// to the matcher's boundary (git data outside it is never read).
type repo struct {
	gitDir    string // holds index
	commonDir string // holds info/exclude and config
}

// findRepo locates the git directory of the worktree at boundary/dir: a
// ".git" directory, or a ".git" file saying "gitdir: path" (linked
// worktrees, submodules). The git directory and its commondir must lie
// inside boundary after resolving symlinks; otherwise, or if there is no
// ".git", it returns nil and the tree is a plain directory with .gitignore
// files.
func findRepo(lr *lazyRoot, boundary, dir string) *repo {
	dotGit := path.Join(dir, ".git")
	fi, err := lr.lstat(dotGit)
	if err != nil {
		return nil
	}
	gitDir := filepath.Join(boundary, filepath.FromSlash(dotGit))
	if fi.Mode().IsRegular() {
		target, ok := readGitFile(lr, dotGit)
		if !ok {
			return nil
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(boundary, filepath.FromSlash(dir), target)
		}
		gitDir = target
	} else if !fi.IsDir() {
		return nil
	}
	gitRel, ok := inside(gitDir, boundary)
	if !ok {
		return nil
	}
	r := &repo{gitDir: gitRel, commonDir: gitRel}
	if data, err := readIn(lr, path.Join(gitRel, "commondir")); err == nil {
		common := strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(boundary, filepath.FromSlash(gitRel), common)
		}
		if r.commonDir, ok = inside(common, boundary); !ok {
			return nil
		}
	}
	return r
}

// isRepoDir reports whether dir (relative to root) holds a nested
// repository: a ".git" directory with a HEAD, or a ".git" file naming one.
func isRepoDir(lr *lazyRoot, dir string) bool {
	fi, err := lr.lstat(path.Join(dir, ".git"))
	switch {
	case err != nil:
		return false
	case fi.IsDir():
		_, err := lr.lstat(path.Join(dir, ".git", "HEAD"))
		return err == nil
	default:
		_, ok := readGitFile(lr, path.Join(dir, ".git"))
		return ok
	}
}

// readGitFile parses a ".git" file: "gitdir: <path>".
func readGitFile(lr *lazyRoot, name string) (string, bool) {
	data, err := readIn(lr, name)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	target, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "gitdir: ")
	return target, ok && target != ""
}

// inside returns p's slash path relative to boundary if p lies there both
// lexically (so nothing outside is even looked at) and after resolving
// symlinks.
func inside(p, boundary string) (string, bool) {
	if _, ok := relLocal(boundary, p); !ok {
		return "", false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	return relLocal(boundary, real)
}

// relLocal returns p relative to base, slash-separated, if it lies there.
func relLocal(base, p string) (string, bool) {
	rel, err := filepath.Rel(base, p)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// Caps on what is read: a larger ignore or config file is not a real one
// and would only cost memory. Indexes of the largest repositories reach a
// few hundred megabytes.
const (
	maxFileSize  = 16 << 20
	maxIndexSize = 1 << 30
)

// readIn reads the regular file name (slash path) through root, without
// following a final symlink (as git ≥ 2.32 reads .gitignore) and without
// blocking on a FIFO.
func readIn(lr *lazyRoot, name string) ([]byte, error) {
	return readInMax(lr, name, maxFileSize)
}

func readInMax(lr *lazyRoot, name string, limit int64) ([]byte, error) {
	root := lr.get()
	if root == nil {
		return nil, os.ErrNotExist
	}
	if fi, err := root.Lstat(name); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, os.ErrInvalid
	}
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpen(f, limit)
}

// readFile reads a configuration file outside the tree (global git config,
// core.excludesFile), following symlinks as git does.
func readFile(name string) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpen(f, maxFileSize)
}

func readOpen(f *os.File, limit int64) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > limit {
		return nil, os.ErrInvalid
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + 1)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > limit {
		return nil, os.ErrInvalid // grew while being read
	}
	return buf.Bytes(), nil
}

// lazyRoot opens the matcher's boundary directory on first use, so that
// answers from cached data cost no system call.
type lazyRoot struct {
	dir    string
	open   func() (*os.Root, error) // opens dir; nil: by its path
	root   *os.Root
	failed bool
}

// get returns the opened root, or nil if it cannot be opened.
func (lr *lazyRoot) get() *os.Root {
	if lr.root == nil && !lr.failed {
		var r *os.Root
		var err error
		if lr.open != nil {
			r, err = lr.open()
		} else {
			r, err = os.OpenRoot(lr.dir)
		}
		lr.root, lr.failed = r, err != nil
	}
	return lr.root
}

func (lr *lazyRoot) lstat(name string) (os.FileInfo, error) {
	root := lr.get()
	if root == nil {
		return nil, os.ErrNotExist
	}
	return root.Lstat(name)
}

// close closes the root if it was opened by get.
func (lr *lazyRoot) close() {
	if lr.root != nil && lr.dir != "" {
		lr.root.Close()
	}
}
