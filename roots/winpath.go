package roots

import (
	"errors"
	"runtime"
	"strings"
)

// The Windows path grammar. Win32 gives some names a meaning of their own, whatever the directory: device
// names (NUL, COM1: opening one opens the device), alternate data streams (a.txt:secret is a second,
// hidden content of a.txt), 8.3 short names (PROGRA~1 is another name of "Program Files", and GIT~1 may be
// .git), names it rewrites (trailing dots and spaces are dropped, so ".git." opens .git), and path forms
// that leave the drive of the root (C:foo is relative to C:'s current directory, \\server\share and the
// \\?\ and \\.\ device namespaces are not below any root). A client names none of them: [CheckWindowsPath]
// and [CheckWindowsRel] refuse them, and every other path is confined by os.Root like any other.
//
// They are pure functions of the string, tested on every OS. grove applies them to every path a client
// names (URIs, tool paths, completion) on Windows only: on Unix none of these names means anything to the
// kernel, and "a:b", "CON", "PROGRA~1" and "notes." are ordinary file names that Linux and macOS users have.

// ErrWindowsPath is what a path refused by the Windows grammar wraps.
var ErrWindowsPath = errors.New("refused on Windows")

// windowsGrammar is whether client paths are checked against the Windows grammar; a variable so that tests
// apply it on any OS.
var windowsGrammar = runtime.GOOS == "windows"

// winPathError says which rule refused a path; its text holds only what the client sent.
type winPathError struct{ rule string }

func (e *winPathError) Error() string { return ErrWindowsPath.Error() + ": " + e.rule }
func (e *winPathError) Unwrap() error { return ErrWindowsPath }

func refuse(rule string) error { return &winPathError{rule: rule} }

// CheckWindowsPath reports why the path p, absolute or relative, with either separator, is refused on
// Windows; nil when it is a drive-absolute path (C:\dir\f) or a relative one made of ordinary names.
func CheckWindowsPath(p string) error {
	if err := checkPrefix(p); err != nil {
		return err
	}
	if isDriveLetter(p) {
		if len(p) == 2 || !isSep(p[2]) {
			return refuse("drive-relative path (C:foo)")
		}
		p = p[3:]
	}
	return checkElems(p)
}

// CheckWindowsRel is CheckWindowsPath for a path that must be relative (a glob, a name below a directory):
// drive letters and rooted forms (\dir) are refused too.
func CheckWindowsRel(p string) error {
	if err := checkPrefix(p); err != nil {
		return err
	}
	if isDriveLetter(p) {
		return refuse("drive letter in a relative path")
	}
	if p != "" && isSep(p[0]) {
		return refuse("rooted path (\\dir) where a relative one is expected")
	}
	return checkElems(p)
}

// checkPrefix refuses UNC paths (\\server\share), the device namespaces (\\?\, \\.\, and \??\ of the NT
// object manager), in any mix of separators.
func checkPrefix(p string) error {
	if len(p) >= 2 && isSep(p[0]) && isSep(p[1]) {
		return refuse(`UNC or device path (\\server\share, \\?\, \\.\)`)
	}
	if len(p) >= 4 && isSep(p[0]) && p[1] == '?' && p[2] == '?' && isSep(p[3]) {
		return refuse(`NT object path (\??\)`)
	}
	return nil
}

func checkElems(p string) error {
	for elem := range strings.FieldsFuncSeq(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if err := checkElem(elem); err != nil {
			return err
		}
	}
	return nil
}

// checkElem checks one name of a path.
func checkElem(elem string) error {
	switch {
	case elem == "." || elem == "..":
		return nil // lexical, confined like anywhere else
	case strings.ContainsRune(elem, ':'):
		return refuse("alternate data stream or drive inside a path (a.txt:secret, a.txt::$DATA)")
	case strings.HasSuffix(elem, ".") || strings.HasSuffix(elem, " "):
		return refuse("name ending in a dot or a space, which Windows drops")
	case isReserved(elem):
		return refuse("reserved device name (CON, NUL, COM1, LPT1, ...)")
	case isShortName(elem):
		return refuse("8.3 short name (PROGRA~1)")
	}
	return nil
}

// isReserved reports whether elem names a DOS device: CON, PRN, AUX, NUL, COM0-9, LPT0-9 (and COM and LPT
// with a superscript 1, 2 or 3), CONIN$ and CONOUT$, in any case, with or without an extension, with spaces
// before the extension ("NUL .txt").
func isReserved(elem string) bool {
	stem, _, _ := strings.Cut(elem, ".")
	stem = strings.ToUpper(strings.TrimRight(stem, " "))
	switch stem {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(stem) < 4 || stem[:3] != "COM" && stem[:3] != "LPT" {
		return false
	}
	switch num := stem[3:]; num {
	case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
		return true
	}
	return false
}

// isShortName reports whether elem has the form of a generated 8.3 name: a tilde and digits ending the
// stem (PROGRA~1, GIT~1, LONGFI~12.TXT). A long name of that form can't be told from an alias of another.
func isShortName(elem string) bool {
	stem, _, _ := strings.Cut(elem, ".")
	i := strings.LastIndexByte(stem, '~')
	if i < 0 || i == len(stem)-1 {
		return false
	}
	for _, c := range stem[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isDriveLetter(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0]|0x20 && p[0]|0x20 <= 'z')
}

func isSep(c byte) bool { return c == '/' || c == '\\' }
