package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// SelfCommand is how a client snippet should name this binary: its absolute
// path, because a GUI application does not see the shell's PATH. Under
// "go run" the binary is a temporary file, so the snippet names where
// "go install ." puts grove instead.
func SelfCommand() string {
	if exe, ok := installedSelf(); ok {
		return shellQuote(exe)
	}
	return `"$(go env GOPATH)/bin/grove"`
}

// SelfJSON is [SelfCommand] for a JSON config, where no shell expands
// anything.
func SelfJSON() string {
	exe, ok := installedSelf()
	if !ok {
		exe = "/absolute/path/to/grove (go list -f '{{.Target}}' . prints it)"
	}
	b, _ := json.Marshal(exe)
	return string(b)
}

func installedSelf() (string, bool) {
	exe, err := os.Executable()
	if err != nil || strings.Contains(filepath.ToSlash(exe), "/go-build") {
		return "", false
	}
	return exe, true
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
