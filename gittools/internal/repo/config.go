package repo

// Reading the repository's config: .git/config (the commondir's, for a linked worktree) and, when
// extensions.worktreeConfig is on, the worktree's config.worktree after it, as git reads them. The repository
// format extensions are checked here, not by go-git: go-git v5.19 knows none of the extensions git writes for
// a sparse checkout (worktreeConfig) or a partial clone (partialClone) and refuses those repositories whole.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/config"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// Config reads the repository's config, refusing a file over MaxConfigFile instead of reading it all and a
// repository format grove cannot read (see checkFormat). The extensions section is checked and then left
// out, so that go-git does not refuse what grove reads.
func (s *objectStore) Config() (*config.Config, error) {
	var data []byte
	var err error
	if s.opening != nil {
		data, err = s.opening.data, s.opening.err
	} else {
		data, err = readConfigFile(s.common, "config")
	}
	if err != nil {
		return nil, err
	}
	cfg, err := config.ReadConfig(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if err := checkFormat(cfg); err != nil {
		return nil, err
	}
	if s.git != nil && cfg.Raw.Section("extensions").Options.Get("worktreeConfig") == "true" {
		wt, err := readConfigFile(s.git, "config.worktree")
		if err != nil {
			return nil, err
		}
		if len(wt) > 0 {
			if cfg, err = config.ReadConfig(bytes.NewReader(append(append(data, '\n'), wt...))); err != nil {
				return nil, err
			}
		}
	}
	cfg.Raw.RemoveSection("extensions")
	return cfg, nil
}

// readConfig is the config file as newObjectStore read it: what opening the store decides from it (the object
// format, a partial clone, go-git's check of the extensions in git.Open) reads it once. OpenStorage drops it
// once the repository is open, so that every later Config reads the file as it is then.
type readConfig struct {
	data []byte
	err  error
}

// readConfigFile reads the config file name in the pinned directory dir; a missing one is empty.
func readConfigFile(dir *os.Root, name string) ([]byte, error) {
	f, err := gitfmt.OpenRegular(dir, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxConfigFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxConfigFile {
		size := int64(len(data))
		if fi, err := f.Stat(); err == nil {
			size = fi.Size()
		}
		return nil, gitfmt.TooBigFile(".git/"+name, size, MaxConfigFile)
	}
	return data, nil
}

// readableExtensions are the repository extensions (lower case, as git compares them) grove reads
// repositories with: their values are checked by checkExtension.
var readableExtensions = map[string]bool{
	"noop": true, "noop-v1": true, "preciousobjects": true, "partialclone": true, "worktreeconfig": true,
	"objectformat": true, "refstorage": true,
}

// v0Extensions are the extensions git honours in a repository of format version 0; it ignores the others there.
var v0Extensions = map[string]bool{"noop": true, "preciousobjects": true, "partialclone": true, "worktreeconfig": true}

// checkFormat refuses a repository whose core.repositoryFormatVersion or extensions grove cannot honour, as
// gitrepository-layout(5) requires, with a *gitfmt.RefusedFile that says which and why.
func checkFormat(cfg *config.Config) error {
	version := cfg.Raw.Section("core").Options.Get("repositoryformatversion")
	switch version {
	case "", "0", "1":
	default:
		return &gitfmt.RefusedFile{File: ".git/config", Reason: fmt.Sprintf("core.repositoryFormatVersion is %q; grove reads versions 0 and 1", version)}
	}
	for _, o := range cfg.Raw.Section("extensions").Options {
		name := strings.ToLower(o.Key)
		if (version == "" || version == "0") && !v0Extensions[name] {
			continue
		}
		if err := checkExtension(name, strings.ToLower(o.Value)); err != nil {
			return err
		}
	}
	return nil
}

// checkExtension refuses the extension name (lower case) with value when grove cannot honour it.
func checkExtension(name, value string) error {
	refuse := func(reason string) error { return &gitfmt.RefusedFile{File: ".git/config", Reason: reason} }
	switch {
	case !readableExtensions[name]:
		return refuse(fmt.Sprintf("it requires the repository extension %q, which grove does not know", name))
	case name == "objectformat" && value != "sha1" && value != "sha256":
		return refuse(fmt.Sprintf("extensions.objectFormat is %q, which grove does not know", value))
	case name == "refstorage" && value != "files":
		return refuse(fmt.Sprintf("its refs are stored as %q (extensions.refStorage); grove reads the files backend only", value))
	}
	return nil
}
