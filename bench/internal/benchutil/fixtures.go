package benchutil

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// Fixture sizes of the file-tool workloads.
const (
	BigFileSize  = 1 << 20 // read_file
	ListEntries  = 1000    // list_directory
	globTop      = 20      // glob: 20 × 10 directories × 100 files = 20,000 files,
	globSub      = 10      // a quarter of them *.txt
	globFiles    = 100
	treeDirs     = 40 // directory_tree: 40 directories × 49 files + 40 = 2,000 entries
	treeFiles    = 49
	TreeEntries  = treeDirs * (treeFiles + 1)
	GlobMatching = globTop * globSub * globFiles / 4
)

// MakeFixtures writes big.txt, list/, glob/ and tree/ under dir.
func MakeFixtures(dir string) error {
	line := bytes.Repeat([]byte("abcdefghij"), 6)
	line = append(line, "abc\n"...) // 64 bytes
	big := bytes.Repeat(line, BigFileSize/len(line))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), big, 0o644); err != nil {
		return err
	}
	if err := makeFiles(filepath.Join(dir, "list"), ListEntries, func(i int) string { return fmt.Sprintf("f%04d.txt", i) }); err != nil {
		return err
	}
	for t := range globTop {
		for s := range globSub {
			d := filepath.Join(dir, "glob", fmt.Sprintf("d%02d", t), fmt.Sprintf("s%d", s))
			err := makeFiles(d, globFiles, func(i int) string {
				if i%4 == 0 {
					return fmt.Sprintf("f%03d.txt", i)
				}
				return fmt.Sprintf("f%03d.dat", i)
			})
			if err != nil {
				return err
			}
		}
	}
	for t := range treeDirs {
		d := filepath.Join(dir, "tree", fmt.Sprintf("d%02d", t))
		if err := makeFiles(d, treeFiles, func(i int) string { return fmt.Sprintf("f%02d.go", i) }); err != nil {
			return err
		}
	}
	return nil
}

// MakeResourceTree writes n files under dir in directories of 100.
func MakeResourceTree(dir string, n int) error {
	for i := 0; i < n; i += 100 {
		d := filepath.Join(dir, fmt.Sprintf("a%03d", i/10000), fmt.Sprintf("b%03d", i/100%100))
		if err := makeFiles(d, min(100, n-i), func(j int) string { return fmt.Sprintf("f%03d.txt", j) }); err != nil {
			return err
		}
	}
	return nil
}

// makeFiles creates dir and n small files named by name(i).
func makeFiles(dir string, n int, name func(int) string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, name(i)), []byte("hello\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// MakeWatchTree writes tops directories with subs subdirectories each, every
// one holding perDir files; (50, 99, 10) gives 5,000 directories and 50,000 files.
func MakeWatchTree(dir string, tops, subs, perDir int) (files, dirs int, err error) {
	for t := range tops {
		top := filepath.Join(dir, fmt.Sprintf("t%02d", t))
		for s := -1; s < subs; s++ {
			d := top
			if s >= 0 {
				d = filepath.Join(top, fmt.Sprintf("s%02d", s))
			}
			if err := os.MkdirAll(d, 0o755); err != nil {
				return files, dirs, err
			}
			dirs++
			for f := range perDir {
				if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%d.txt", f)), []byte("x\n"), 0o644); err != nil {
					return files, dirs, err
				}
				files++
			}
		}
	}
	return files, dirs, nil
}
