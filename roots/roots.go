// Package roots owns grove's notion of where it may look: it turns root URIs
// into a concurrency-safe [Set], and resolves client paths to a [Loc] that is
// opened through [os.Root], so that "..", absolute paths and symlinks cannot
// escape a root, not even when a symlink is swapped in between check and use.
//
// The operator's --root directories are the ceiling; roots announced by the
// client can only narrow them. A [Scope] is an immutable snapshot of the roots
// in force for one request:
//
//	set, err := roots.NewSet([]string{"/home/me/project"}, logger)
//	loc, err := set.Scope().Resolve("file:///home/me/project/main.go")
//	f, info, err := loc.OpenFile()
//
// # Errors
//
// A path outside every root and a path that does not exist give the same
// error, [ErrNotFound], whose text holds only what the client sent: a client
// must not learn what exists outside its roots, nor where the roots really are.
package roots

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
)

var (
	// ErrNotFound is the error for paths that are missing or outside the roots;
	// the two are deliberately indistinguishable.
	ErrNotFound error = notFound{}
	// ErrNotRegular refuses FIFOs, sockets and devices, which could block a
	// reader forever or have side effects when opened.
	ErrNotRegular = errors.New("not a regular file")
	// ErrIsDir is returned when a file was expected and a directory found.
	ErrIsDir = errors.New("is a directory")
)

// notFound also matches fs.ErrNotExist, so callers may test for either.
type notFound struct{}

func (notFound) Error() string        { return "no such file or directory within the allowed roots" }
func (notFound) Is(target error) bool { return target == fs.ErrNotExist }

// inputError names what the client sent, never a real path.
type inputError struct {
	input string
	err   error
}

func (e *inputError) Error() string { return e.input + ": " + e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// NotFound returns the error for input (a path or URI as the client sent it)
// when it is missing or outside the roots. Both cases read the same.
func NotFound(input string) error {
	return &inputError{input: input, err: ErrNotFound}
}

// PublicError turns err, from an operation on the file the client named
// input, into an error fit for the client: missing files, escapes out of a
// root and symlink loops all become [NotFound]; other errors keep their
// meaning but name only input.
func PublicError(input string, err error) error {
	if err == nil {
		return nil
	}
	var ie *inputError
	if errors.As(err, &ie) {
		return err
	}
	if errors.Is(err, fs.ErrNotExist) || isEscape(err) {
		return NotFound(input)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &inputError{input: input, err: pe.Err}
	}
	return &inputError{input: input, err: err}
}

// isEscape reports errors by which os.Root refuses to leave its directory. The
// os package does not export them, so their text is the only handle.
func isEscape(err error) bool {
	s := err.Error()
	return strings.Contains(s, "path escapes from parent") ||
		strings.Contains(s, "too many levels of symbolic links") ||
		strings.Contains(s, "not a directory")
}

// Source tells where a root came from.
type Source string

const (
	Flag   Source = "flag"   // the operator's --root
	Client Source = "client" // the client's roots
)

// Root is one directory (or single file) grove may use.
type Root struct {
	URI    string `json:"uri"`
	Path   string `json:"path"` // absolute, symlinks resolved once, when the root was set
	Name   string `json:"name"`
	Source Source `json:"source"`
	File   bool   `json:"file,omitempty"` // the root is a single file
}

// Parse turns a file:// URI into an absolute, cleaned OS path. The host must
// be empty or "localhost"; the path is percent-decoded exactly once; queries,
// fragments, NUL bytes, relative and opaque forms are refused.
func Parse(uri string) (string, error) {
	p, err := parse(uri)
	if err != nil {
		return "", fmt.Errorf("invalid root or resource URI %q: %w", uri, err)
	}
	return p, nil
}

func parse(uri string) (string, error) {
	scheme, rest, ok := strings.Cut(uri, ":")
	if !ok || !strings.EqualFold(scheme, "file") {
		return "", errors.New("only file:// URIs are supported")
	}
	rest, ok = strings.CutPrefix(rest, "//")
	if !ok {
		return "", errors.New("want file:///absolute/path")
	}
	host, p, ok := strings.Cut(rest, "/")
	if !ok {
		return "", errors.New("missing path")
	}
	if host != "" && !strings.EqualFold(host, "localhost") {
		return "", fmt.Errorf("host %q is not this machine", host)
	}
	if strings.ContainsAny(p, "?#") {
		return "", errors.New("queries and fragments are not allowed")
	}
	decoded, err := url.PathUnescape("/" + p)
	if err != nil {
		return "", errors.New("bad percent-encoding")
	}
	if strings.ContainsRune(decoded, 0) {
		return "", errors.New("NUL byte in path")
	}
	if runtime.GOOS == "windows" && len(decoded) >= 3 && decoded[0] == '/' && decoded[2] == ':' {
		decoded = decoded[1:] // file:///C:/dir
	}
	if windowsGrammar {
		if err := CheckWindowsPath(decoded); err != nil {
			return "", err
		}
	}
	path := filepath.Clean(filepath.FromSlash(decoded))
	if !filepath.IsAbs(path) {
		return "", errors.New("path is not absolute")
	}
	return path, nil
}

// URI returns the file:// URI of an absolute OS path.
func URI(absPath string) string {
	p := filepath.ToSlash(absPath)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/dir
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// IsURI reports whether s looks like a URI rather than a path.
func IsURI(s string) bool {
	scheme, _, ok := strings.Cut(s, ":")
	if !ok || len(scheme) < 2 || !('a' <= scheme[0]|0x20 && scheme[0]|0x20 <= 'z') { // C:\dir is a path
		return false
	}
	for _, r := range scheme {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '+' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}
