package ignore

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// gitConfig holds the few settings the matcher needs.
type gitConfig struct {
	excludesFile string // core.excludesFile, "" if unset
	fromRepo     bool   // excludesFile was named by the repository's own config
	hashSize     int    // 20, or 32 with extensions.objectFormat = sha256
}

// loadConfig reads core.excludesFile and extensions.objectFormat from the
// global configuration ($XDG_CONFIG_HOME/git/config, then ~/.gitconfig) and
// the repository's config (read through root), later files overriding
// earlier ones as in git. System config and include directives are not read.
func loadConfig(lr *lazyRoot, r *repo) gitConfig {
	cfg := gitConfig{hashSize: 20}
	home, _ := os.UserHomeDir()
	for _, name := range []string{xdgPath("config"), filepath.Join(home, ".gitconfig")} {
		if home == "" && !filepath.IsAbs(name) {
			continue
		}
		if data, err := readFile(name); err == nil {
			cfg.apply(string(data), home, false)
		}
	}
	if r != nil {
		if data, err := readIn(lr, path.Join(r.commonDir, "config")); err == nil {
			cfg.apply(string(data), home, true)
		}
	}
	return cfg
}

// xdgPath is $XDG_CONFIG_HOME/git/name, or ~/.config/git/name.
func xdgPath(name string) string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", name)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".config", "git", name)
}

// apply parses git-config text: "[section]" or `[section "sub"]` headers
// and "key = value" lines with quotes, escapes, comments and continuation
// lines.
func (c *gitConfig) apply(text, home string, fromRepo bool) {
	section := ""
	for text != "" {
		var line string
		line, text = cutLine(text)
		for strings.HasSuffix(line, "\\") && !strings.HasSuffix(line, "\\\\") && text != "" {
			var next string
			next, text = cutLine(text)
			line = line[:len(line)-1] + next
		}
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			// A subsection ([core "x"] or [core.x]) is another section.
			section = strings.ToLower(strings.TrimSpace(line[1:end]))
			line = strings.TrimSpace(line[end+1:])
		}
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			continue // a bare boolean key; none of ours
		}
		c.set(section, strings.ToLower(strings.TrimSpace(key)), configValue(value), home, fromRepo)
	}
}

func cutLine(s string) (line, rest string) {
	line, rest, _ = strings.Cut(s, "\n")
	return strings.TrimSuffix(line, "\r"), rest
}

func (c *gitConfig) set(section, key, value, home string, fromRepo bool) {
	switch {
	case section == "core" && key == "excludesfile":
		if rest, ok := strings.CutPrefix(value, "~/"); ok && home != "" {
			value = filepath.Join(home, rest)
		}
		c.excludesFile, c.fromRepo = value, fromRepo
	case section == "extensions" && key == "objectformat":
		if strings.EqualFold(value, "sha256") {
			c.hashSize = 32
		} else {
			c.hashSize = 20
		}
	}
}

// configValue decodes a raw value: surrounding whitespace is dropped, quotes
// removed, backslash escapes applied and an unquoted "#" or ";" starts a
// comment.
func configValue(raw string) string {
	var b strings.Builder
	quoted := false
	raw = strings.TrimSpace(raw)
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(raw):
			i++
			b.WriteByte(unescape(raw[i]))
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimRight(b.String(), " \t")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unescape returns the byte that a backslash followed by c stands for.
func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'b':
		return '\b'
	}
	return c
}
