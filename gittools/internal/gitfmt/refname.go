package gitfmt

import (
	"errors"
	"fmt"
	"strings"
)

// maxRefName bounds ref names; git has no hard limit, but nothing legitimate comes near it.
const maxRefName = 1024

// ValidRefName reports whether name is a valid branch or tag name by git's check-ref-format rules
// (one-level names such as "main" allowed, as `git branch` does), and also refuses names git's
// porcelain refuses: a leading '-' (option-like) and "HEAD". name may be short ("feature/x") or full
// ("refs/heads/feature/x"). The error quotes name and says which rule it breaks.
func ValidRefName(name string) error {
	if err := refNameRule(name); err != nil {
		return fmt.Errorf("invalid ref name %q: %w", name, err)
	}
	return nil
}

func refNameRule(name string) error {
	switch {
	case name == "":
		return errors.New("empty")
	case len(name) > maxRefName:
		return errors.New("too long")
	case name[0] == '-':
		return errors.New("must not start with '-'")
	case name == "@" || name == "HEAD":
		return errors.New("reserved name")
	case name[0] == '/' || name[len(name)-1] == '/':
		return errors.New("must not start or end with '/'")
	case name[len(name)-1] == '.':
		return errors.New("must not end with '.'")
	case strings.Contains(name, "//"):
		return errors.New("must not contain '//'")
	case strings.Contains(name, ".."):
		return errors.New("must not contain '..'")
	case strings.Contains(name, "@{"):
		return errors.New("must not contain '@{'")
	}
	for _, c := range []byte(name) {
		if c < 0x20 || c == 0x7f || strings.IndexByte(" ~^:?*[\\", c) >= 0 {
			return fmt.Errorf("must not contain %q", c)
		}
	}
	for _, comp := range strings.Split(name, "/") {
		if comp[0] == '.' {
			return errors.New("no component may start with '.'")
		}
		if strings.HasSuffix(comp, ".lock") {
			return errors.New("no component may end with '.lock'")
		}
	}
	return nil
}
