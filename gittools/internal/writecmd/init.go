package writecmd

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"

	"github.com/grove-mcp/grove/gittools/internal/gitwrite"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/roots"
	"github.com/grove-mcp/grove/scope"
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

// Init runs git_init: it creates an empty repository in a directory inside a root (made if missing). It
// writes the layout itself, through the root's os.Root, in a temporary directory renamed to .git at the end:
// go-git's PlainInit would write through plain paths, and a half-made .git would look like a broken
// repository.
func Init(ctx context.Context, env Env, in InitArgs) (InitOut, error) {
	if err := ctx.Err(); err != nil {
		return InitOut{}, err
	}
	sc := env.Scope
	if in.RepoPath == "" {
		root, err := scope.DefaultRoot(sc, "repo_path")
		if err != nil {
			return InitOut{}, err
		}
		in.RepoPath = root.URI
	}
	if err := scope.RefuseTilde(in.RepoPath); err != nil {
		return InitOut{}, err
	}
	loc, err := sc.Resolve(in.RepoPath)
	if err != nil || loc.Root.File || gitwrite.IsGitPath(loc.Rel) {
		return InitOut{}, fmt.Errorf("cannot create a repository at %q: %w", in.RepoPath, roots.ErrNotFound)
	}
	if err := loc.FS().MkdirAll(loc.Name(), 0o755); err != nil {
		return InitOut{}, fmt.Errorf("creating %q: %w", in.RepoPath, repo.PathErr(err))
	}
	dir, err := loc.FS().OpenRoot(loc.Name())
	if err != nil {
		return InitOut{}, fmt.Errorf("opening %q: %w", in.RepoPath, repo.PathErr(err))
	}
	defer dir.Close()
	if isRepoDir(dir) {
		return InitOut{}, fmt.Errorf("%q is already a git repository", in.RepoPath)
	}
	branch := defaultBranch()
	if err := writeGitDir(dir, branch); err != nil {
		return InitOut{}, err
	}
	env.log().Info("initialized repository", "path", loc.Abs())
	return InitOut{Path: loc.Abs(), Branch: branch}, nil
}

// Text is git_init's answer for the model.
func (out InitOut) Text() string {
	return fmt.Sprintf("Initialized empty Git repository in %s (branch %s, no commits yet).", filepath.Join(out.Path, ".git"), out.Branch)
}

// initConfig is the .git/config git init writes on Linux.
const initConfig = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n"

// isRepoDir reports whether dir has a .git entry or is itself a bare repository.
func isRepoDir(dir *os.Root) bool {
	if _, err := dir.Lstat(".git"); err == nil {
		return true
	}
	_, errHead := dir.Lstat("HEAD")
	_, errObjects := dir.Lstat("objects")
	_, errRefs := dir.Lstat("refs")
	return errHead == nil && errObjects == nil && errRefs == nil
}

// defaultBranch is init.defaultBranch from the user's global config, or git's built-in "master".
func defaultBranch() string {
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

// writeGitDir builds the git dir in a temporary directory and renames it to .git.
func writeGitDir(dir *os.Root, branch string) error {
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
