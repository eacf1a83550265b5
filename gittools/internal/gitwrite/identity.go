package gitwrite

// The identity commits and tags are made with. It comes from the user's environment and configuration, never
// from the model: GIT_{AUTHOR,COMMITTER}_{NAME,EMAIL}, then author.* / committer.* and user.* from the
// repository's config layered over the user's global config files, as git reads them.

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grove-mcp/grove/gittools/internal/gitfmt"
	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// errNoIdentity says how the user (not the model) can fix a missing identity.
var errNoIdentity = errors.New("no git identity configured: the user must set user.name and user.email " +
	"(git config --global user.name \"Name\"; git config --global user.email you@example.com) or the " +
	"GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL and GIT_COMMITTER_NAME/GIT_COMMITTER_EMAIL environment variables of the server")

// Signature returns the identity for role ("author" or "committer") at now.
func Signature(rp *repo.Repo, role string, now time.Time) (object.Signature, error) {
	cfgs := append(GlobalConfigs(), localConfig(rp))
	name := identityValue(role, "NAME", "name", cfgs)
	email := strings.Trim(identityValue(role, "EMAIL", "email", cfgs), "<> \t")
	if name == "" || email == "" || strings.ContainsAny(name+email, "<>\n\x00") {
		return object.Signature{}, errNoIdentity
	}
	return object.Signature{Name: name, Email: email, When: now}, nil
}

// identityValue looks up one field: the environment, then <role>.<key>, then user.<key>, the last config
// file that sets it winning (cfgs are in git's reading order).
func identityValue(role, envKey, key string, cfgs []*config.Config) string {
	if v := strings.TrimSpace(os.Getenv("GIT_" + strings.ToUpper(role) + "_" + envKey)); v != "" {
		return v
	}
	for _, section := range []string{role, "user"} {
		if v := strings.TrimSpace(lastConfigValue(cfgs, section, key)); v != "" {
			return v
		}
	}
	return ""
}

// lastConfigValue is section.key from the last of cfgs (nil entries skipped) that sets it.
func lastConfigValue(cfgs []*config.Config, section, key string) string {
	v := ""
	for _, c := range cfgs {
		if c == nil || !c.HasSection(section) {
			continue
		}
		if o := c.Section(section).Options.Get(key); o != "" {
			v = o
		}
	}
	return v
}

// localConfig is the repository's own config, or nil.
func localConfig(rp *repo.Repo) *config.Config {
	cfg, err := rp.Git.Config()
	if err != nil {
		return nil
	}
	return cfg.Raw
}

// GlobalConfigs reads the user's global config files in git's order (XDG first, ~/.gitconfig last, so it
// wins); GIT_CONFIG_GLOBAL replaces both. Missing or unreadable files are skipped.
func GlobalConfigs() []*config.Config {
	var paths []string
	if p := os.Getenv("GIT_CONFIG_GLOBAL"); p != "" {
		paths = []string{p}
	} else {
		home, _ := os.UserHomeDir()
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			paths = append(paths, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			paths = append(paths, filepath.Join(home, ".gitconfig"))
		}
	}
	var out []*config.Config
	for _, p := range paths {
		if c := readConfigFile(p); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// readConfigFile parses the config file p; a missing or unreadable one, or one over maxConfigFile, is none.
func readConfigFile(p string) *config.Config {
	f, err := os.OpenFile(p, os.O_RDONLY|gitfmt.OpenNoBlock, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, repo.MaxConfigFile+1))
	if err != nil || len(data) > repo.MaxConfigFile {
		return nil
	}
	c := config.New()
	if err := config.NewDecoder(bytes.NewReader(data)).Decode(c); err != nil {
		return nil
	}
	return c
}

// CleanMessage tidies a commit or tag message the way `git commit -m` does (cleanup mode "whitespace"):
// trailing spaces go, runs of blank lines become one, leading and trailing blank lines go, and the
// message ends with a newline. An empty result means an empty message.
func CleanMessage(msg string) string {
	var out []string
	blank := false
	for _, line := range strings.Split(strings.ReplaceAll(msg, "\r\n", "\n"), "\n") {
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, line)
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// SummaryLine is the first line of a cleaned message.
func SummaryLine(msg string) string {
	s, _, _ := strings.Cut(msg, "\n")
	return s
}
