package gittools

// Content conversions grove does not perform. git may change a file's bytes between the worktree and the
// repository: clean/smudge filters (Git LFS), working-tree-encoding, and line-ending conversion (core.autocrlf,
// the text/eol attributes). grove stores and writes bytes unchanged, so where git would convert, the write
// tools refuse rather than commit an LFS file's real content or write a pointer file into the worktree.
// Attributes come from the .gitattributes files on the path and .git/info/attributes.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"
)

// maxAttributesFile bounds a .gitattributes file.
const maxAttributesFile = 1 << 20

// conversions answers, per path, whether git would convert its content.
type conversions struct {
	wt       *os.Root
	autocrlf string                                    // core.autocrlf: "", "true", "input"
	dirs     map[string][]gitattributes.MatchAttribute // per directory, from its .gitattributes (cached)
	info     []gitattributes.MatchAttribute
	tree     func(dir string) []gitattributes.MatchAttribute // a checkout's target tree, or nil
}

func (rp *repo) newConversions(wt *os.Root) *conversions {
	c := &conversions{wt: wt, dirs: map[string][]gitattributes.MatchAttribute{}}
	switch v := strings.ToLower(lastConfigValue(append(globalConfigs(), rp.localConfig()), "core", "autocrlf")); v {
	case "true", "yes", "on", "1":
		c.autocrlf = "true"
	case "input":
		c.autocrlf = "input"
	}
	if gd, err := rp.openDir(rp.gitDir); err == nil {
		c.info = readAttributes(gd, filepath.Join("info", "attributes"), nil)
		gd.Close()
	}
	return c
}

// attrs returns the conversion attributes of rel.
func (c *conversions) attrs(rel string) map[string]gitattributes.Attribute {
	var stack []gitattributes.MatchAttribute
	dirs := []string{"."}
	for d := range parentDirs(rel) {
		dirs = append(dirs, d)
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		list, ok := c.dirs[d]
		if !ok {
			var domain []string
			if d != "." {
				domain = strings.Split(d, "/")
			}
			list = readAttributes(c.wt, filepath.Join(filepath.FromSlash(d), ".gitattributes"), domain)
			if c.tree != nil {
				list = append(list, c.tree(d)...)
			}
			c.dirs[d] = list
		}
		stack = append(stack, list...)
	}
	stack = append(stack, c.info...)
	if len(stack) == 0 {
		return nil
	}
	m, _ := gitattributes.NewMatcher(stack).Match(strings.Split(rel, "/"),
		[]string{"filter", "working-tree-encoding", "text", "eol", "crlf"})
	return m
}

// checkIn refuses staging rel when git would filter it; crlf reports whether git would convert its line
// endings, so that its content must have no CRLF (errCRLF), which the caller checks while reading it.
func (c *conversions) checkIn(rel string) (crlf bool, err error) {
	a := c.attrs(rel)
	if err := c.checkFilters(rel, a); err != nil {
		return false, err
	}
	return c.converts(a, c.autocrlf != ""), nil
}

// errCRLF is the refusal of a file with CRLF line endings git would convert.
func errCRLF(rel string) error {
	return fmt.Errorf("%s has CRLF line endings that git would convert (core.autocrlf or the text/eol attributes); grove stores bytes unchanged, so stage it with git", rel)
}

// checkOut refuses writing rel into the worktree when git would filter or convert it.
func (c *conversions) checkOut(rel string) error {
	a := c.attrs(rel)
	if err := c.checkFilters(rel, a); err != nil {
		return err
	}
	crlf := c.autocrlf == "true" || a["eol"] != nil && a["eol"].Value() == "crlf"
	if crlf && c.converts(a, true) {
		return fmt.Errorf("%s would get CRLF line endings from git (core.autocrlf=true or eol=crlf); grove writes bytes unchanged", rel)
	}
	return nil
}

func (c *conversions) checkFilters(rel string, a map[string]gitattributes.Attribute) error {
	if f := a["filter"]; f != nil && f.IsValueSet() {
		return fmt.Errorf("%s uses the git filter %q (Git LFS or similar), which grove cannot run; use git for it", rel, f.Value())
	}
	if e := a["working-tree-encoding"]; e != nil && e.IsValueSet() {
		return fmt.Errorf("%s has working-tree-encoding %q, which grove cannot convert; use git for it", rel, e.Value())
	}
	return nil
}

// converts reports whether the attributes (or autocrlf, when byDefault) make git treat the file as text to convert.
func (c *conversions) converts(a map[string]gitattributes.Attribute, byDefault bool) bool {
	for _, k := range []string{"text", "crlf"} {
		if v := a[k]; v != nil && v.IsUnset() {
			return false
		}
	}
	if v := a["text"]; v != nil && (v.IsSet() || v.IsValueSet()) {
		return true
	}
	if v := a["eol"]; v != nil && v.IsValueSet() {
		return true
	}
	return byDefault
}

// treeAttributes reads the .gitattributes files of a tree (a branch being checked out).
func (rp *repo) treeAttributes(files map[string]blobEntry) func(dir string) []gitattributes.MatchAttribute {
	return func(dir string) []gitattributes.MatchAttribute {
		var domain []string
		if dir != "." {
			domain = strings.Split(dir, "/")
		}
		e, ok := files[path.Join(dir, ".gitattributes")]
		if !ok || e.Mode == filemode.Symlink {
			return nil
		}
		data, _, err := rp.readBlobCapped(e.Hash, maxAttributesFile)
		if err != nil {
			return nil
		}
		attrs, err := gitattributes.ReadAttributes(bytes.NewReader(data), domain, domain == nil)
		if err != nil {
			return nil
		}
		return attrs
	}
}

// readAttributes parses an attributes file read through root; a missing or unreadable file has none.
func readAttributes(root *os.Root, name string, domain []string) []gitattributes.MatchAttribute {
	f, err := root.OpenFile(name, os.O_RDONLY|openNoFollow, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxAttributesFile))
	if err != nil {
		return nil
	}
	attrs, err := gitattributes.ReadAttributes(bytes.NewReader(data), domain, domain == nil)
	if err != nil {
		return nil
	}
	return attrs
}
