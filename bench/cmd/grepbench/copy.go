package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// copyTree copies the files of src (leaving out .git) n times, into
// out/c00 … out/cNN, unless out already holds that many copies. It returns
// the number of files and bytes below out.
func copyTree(src, out string, n int) (files int, size int64, err error) {
	for i := range n {
		dst := filepath.Join(out, fmt.Sprintf("c%02d", i))
		if _, err := os.Stat(filepath.Join(dst, ".grepbench-done")); err != nil {
			if err := os.RemoveAll(dst); err != nil {
				return 0, 0, err
			}
			if err := copyOnce(src, dst); err != nil {
				return 0, 0, err
			}
			if err := os.WriteFile(filepath.Join(dst, ".grepbench-done"), nil, 0o644); err != nil {
				return 0, 0, err
			}
		}
	}
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			info, err := d.Info()
			if err == nil {
				files++
				size += info.Size()
			}
		}
		return nil
	})
	return files, size, err
}

func copyOnce(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() && d.Name() == ".git" {
			return fs.SkipDir
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			return copyFile(p, target)
		}
		return nil // symlinks and the rest are left out
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
