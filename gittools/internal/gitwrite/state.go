package gitwrite

// The files of an operation in progress (MERGE_HEAD, MERGE_MSG, MERGE_MODE, ORIG_HEAD, CHERRY_PICK_HEAD,
// REVERT_HEAD, the sequencer directory) and conflict stages in the index.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/repo"
)

// maxStateFile bounds a state file read (a merge message is the largest).
const maxStateFile = 1 << 20

// WriteState writes a file of the git dir (name may be in a subdirectory, created as needed) through
// name.lock and a rename.
func WriteState(rp *repo.Repo, name string, data []byte) error {
	return writeStateIn(rp, rp.GitDir, name, data)
}

// WriteCommonState is WriteState in the common dir (refs and their logs, shared by linked worktrees).
func WriteCommonState(rp *repo.Repo, name string, data []byte) error {
	return writeStateIn(rp, rp.CommonDir, name, data)
}

func writeStateIn(rp *repo.Repo, base, name string, data []byte) error {
	if err := rp.Writable(); err != nil {
		return err
	}
	gd, err := openDir(rp, base)
	if err != nil {
		return err
	}
	defer gd.Close()
	if dir := filepath.Dir(filepath.FromSlash(name)); dir != "." {
		if err := gd.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("creating %s: %w", dir, err)
		}
	}
	return writeLocked(gd, filepath.FromSlash(name), data)
}

// ReadState reads a file of the git dir; ok is false when it does not exist.
func ReadState(rp *repo.Repo, name string) (data []byte, ok bool, err error) {
	return readStateIn(rp, rp.GitDir, name, maxStateFile)
}

// ReadCommonState is ReadState in the common dir, reading up to max bytes.
func ReadCommonState(rp *repo.Repo, name string, max int64) (data []byte, ok bool, err error) {
	return readStateIn(rp, rp.CommonDir, name, max)
}

func readStateIn(rp *repo.Repo, base, name string, max int64) (data []byte, ok bool, err error) {
	gd, err := openDir(rp, base)
	if err != nil {
		return nil, false, err
	}
	defer gd.Close()
	f, err := gitfmt.OpenRegular(gd, filepath.FromSlash(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", name, repo.PathErr(err))
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", name, err)
	}
	if int64(len(data)) > max {
		return nil, false, fmt.Errorf("%s is larger than %d bytes", name, max)
	}
	return data, true, nil
}

// RemoveState deletes files (or empty-able directories, removed with their contents) of the git dir; missing
// ones are fine.
func RemoveState(rp *repo.Repo, names ...string) error {
	return removeStateIn(rp, rp.GitDir, names)
}

// RemoveCommonState is RemoveState in the common dir.
func RemoveCommonState(rp *repo.Repo, names ...string) error {
	return removeStateIn(rp, rp.CommonDir, names)
}

func removeStateIn(rp *repo.Repo, base string, names []string) error {
	gd, err := openDir(rp, base)
	if err != nil {
		return err
	}
	defer gd.Close()
	for _, n := range names {
		if err := gd.RemoveAll(filepath.FromSlash(n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", n, err)
		}
	}
	return nil
}

// SetStages replaces every entry of name with the given conflict stages (each entry's Stage set, 1 to 3).
func (ix *IndexFile) SetStages(name string, stages []*index.Entry) {
	ix.RemoveName(name)
	for _, e := range stages {
		e.Name = name
		ix.add(e)
	}
}
