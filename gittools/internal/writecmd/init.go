package writecmd

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
)

// InitArgs are the arguments of git_init.
type InitArgs struct {
	RepoPath string `json:"repo_path,omitempty" jsonschema:"the directory to make a repository: an absolute path or file:// URI inside a root, created if missing (default: the only root; required when there are several)"`
}

// InitOut is the result of git_init.
type InitOut struct {
	Path   string `json:"path" jsonschema:"the new repository's worktree"`
	Branch string `json:"branch" jsonschema:"the unborn branch HEAD points at"`
}

// initConfig is the .git/config git init writes on Linux.
const initConfig = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n"

// IsRepoDir reports whether dir has a .git entry or is itself a bare repository.
func IsRepoDir(dir *os.Root) bool {
	if _, err := dir.Lstat(".git"); err == nil {
		return true
	}
	_, errHead := dir.Lstat("HEAD")
	_, errObjects := dir.Lstat("objects")
	_, errRefs := dir.Lstat("refs")
	return errHead == nil && errObjects == nil && errRefs == nil
}

// DefaultBranch is init.defaultBranch from the user's global config, or git's built-in "master".
func DefaultBranch() string {
	b := "master"
	for _, c := range gitwrite.GlobalConfigs() {
		if c.HasSection("init") {
			if v := c.Section("init").Options.Get("defaultBranch"); v != "" && gitfmt.ValidRefName(v) == nil {
				b = v
			}
		}
	}
	return b
}

// WriteGitDir builds the git dir in a temporary directory and renames it to .git.
func WriteGitDir(dir *os.Root, branch string) error {
	tmp := ".git.grove-" + rand.Text()[:8]
	err := fillGitDir(dir, tmp, branch)
	if err == nil {
		err = dir.Rename(tmp, ".git")
	}
	if err != nil {
		dir.RemoveAll(tmp)
		return fmt.Errorf("creating the repository: %w", repo.PathErr(err))
	}
	return nil
}

func fillGitDir(dir *os.Root, tmp, branch string) error {
	if err := dir.Mkdir(tmp, 0o755); err != nil {
		return err
	}
	for _, d := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags", "info"} {
		if err := dir.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			return err
		}
	}
	files := map[string]string{
		"HEAD":        "ref: refs/heads/" + branch + "\n",
		"config":      initConfig,
		"description": "Unnamed repository; edit this file 'description' to name the repository.\n",
	}
	for name, content := range files {
		if err := dir.WriteFile(filepath.Join(tmp, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}
