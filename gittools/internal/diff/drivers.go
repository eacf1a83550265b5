package diff

import (
	"io"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitattributes"

	"github.com/grove-mcp/grove/gittools/internal/patchtext"
	"github.com/grove-mcp/grove/gittools/internal/repo"
	"github.com/grove-mcp/grove/internal/unified"
)

// The diff attribute (gitattributes(5) "Generating diff text"): "-diff" (or the binary macro) shows a file
// as binary, and diff=NAME picks a driver whose hunk-header rule replaces the default one. Attributes come
// from the worktree's .gitattributes files on the path, as `git diff` reads them (.git/info/attributes
// is not read yet). grove knows the hunk-header rules of the built-in drivers repositories use most (cpp, python,
// perl); any other driver, or one configured only in git config, gets the default rule.

// maxAttributesFile bounds one .gitattributes file; a larger one is ignored.
const maxAttributesFile = 1 << 20

// drivers answers, per path, how its patch is written. It reads each .gitattributes file once.
type drivers struct {
	rp   *repo.Repo
	dirs map[string][]gitattributes.MatchAttribute
}

func newDrivers(rp *repo.Repo) *drivers {
	return &drivers{rp: rp, dirs: map[string][]gitattributes.MatchAttribute{}}
}

// attr returns p's diff attribute.
func (d *drivers) attr(p string) (gitattributes.Attribute, bool) {
	var stack []gitattributes.MatchAttribute
	dir := ""
	parts := strings.Split(p, "/")
	for i := range parts {
		stack = append(stack, d.dir(dir, parts[:i])...)
		dir = path.Join(dir, parts[i])
	}
	m, _ := gitattributes.NewMatcher(stack).Match(parts, []string{"diff"})
	a, ok := m["diff"]
	return a, ok
}

func (d *drivers) dir(dir string, domain []string) []gitattributes.MatchAttribute {
	if ps, ok := d.dirs[dir]; ok {
		return ps
	}
	var ps []gitattributes.MatchAttribute
	if f, info, err := d.rp.Loc.Join(path.Join(dir, ".gitattributes")).OpenFile(); err == nil {
		if info.Mode().IsRegular() && info.Size() <= maxAttributesFile {
			data, _ := io.ReadAll(io.LimitReader(f, maxAttributesFile))
			ps, _ = gitattributes.ReadAttributes(strings.NewReader(string(data)), domain, dir == "")
		}
		f.Close()
	}
	d.dirs[dir] = ps
	return ps
}

// binary reports whether p's attributes make it binary for diff.
func (d *drivers) binary(p string) bool {
	a, ok := d.attr(p)
	return ok && a.IsUnset()
}

// funcLine returns the hunk-header rule of p's driver, or nil for the default.
func (d *drivers) funcLine(p string) patchtext.FuncLiner {
	a, ok := d.attr(p)
	if !ok || !a.IsValueSet() {
		return nil
	}
	return builtinDrivers[a.Value()]
}

var builtinDrivers = map[string]patchtext.FuncLiner{
	"cpp":    cppFuncLine,
	"python": pythonFuncLine,
	"perl":   perlFuncLine,
}

// cppFuncLine: a line that starts with a letter or '_' (or "::" and one) names a function, a variable or a
// type at top level, unless it is a label or an access specifier ("out:", "public:").
func cppFuncLine(line string) (string, bool) {
	s := line
	if rest, ok := strings.CutPrefix(s, "::"); ok {
		s = strings.TrimLeft(rest, " \t\r\n\v\f")
	}
	if s == "" || !identStart(s[0]) {
		return "", false
	}
	if isLabel(line) {
		return "", false
	}
	return unified.Trim(strings.TrimRight(line, "\n")), true
}

// isLabel reports whether line is "name:" (indented or not), alone or before a comment.
func isLabel(line string) bool {
	s := strings.TrimLeft(line, " \t")
	i := 0
	for i < len(s) && (identStart(s[i]) || i > 0 && '0' <= s[i] && s[i] <= '9') {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != ':' {
		return false
	}
	rest := strings.TrimLeft(s[i+1:], " \t\r\n\v\f")
	return rest == "" || strings.HasPrefix(rest, "//") || strings.HasPrefix(rest, "/*")
}

func identStart(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }

// pythonFuncLine: a class or def (async def) at any indentation; the header starts at the keyword.
func pythonFuncLine(line string) (string, bool) {
	s := strings.TrimLeft(line, " \t")
	for _, kw := range []string{"class", "def", "async"} {
		if rest, ok := strings.CutPrefix(s, kw); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			if kw == "async" && !strings.HasPrefix(strings.TrimLeft(rest, " \t"), "def") {
				return "", false
			}
			return unified.Trim(strings.TrimRight(s, "\n")), true
		}
	}
	return "", false
}

// perlFuncLine: package declarations, sub declarations, the special blocks (BEGIN, END, …) and POD
// headings. A sub declared with a prototype gets the prototype as its header ("($$)"), as git shows it; a
// sub line must end after its optional prototype, attributes, opening brace and comment.
func perlFuncLine(line string) (string, bool) {
	body := strings.TrimRight(line, "\n")
	switch {
	case strings.HasPrefix(body, "package "), strings.HasPrefix(body, "=head") && len(body) > 5 && '0' <= body[5] && body[5] <= '9' && strings.HasPrefix(body[6:], " "):
		return unified.Trim(body), true
	case strings.HasPrefix(body, "sub "):
		return perlSub(body)
	}
	for _, kw := range []string{"BEGIN", "END", "INIT", "CHECK", "UNITCHECK", "AUTOLOAD", "DESTROY"} {
		if rest, ok := strings.CutPrefix(body, kw); ok && perlBlockTail(strings.TrimLeft(rest, " \t")) {
			return unified.Trim(body), true
		}
	}
	return "", false
}

// perlSub reads "sub NAME [(PROTO)] [:ATTRS] [{] [#comment]".
func perlSub(body string) (string, bool) {
	s := body[len("sub "):]
	n := 0
	for n < len(s) && (identStart(s[n]) || '0' <= s[n] && s[n] <= '9' || s[n] == '\'' || s[n] == ':') {
		n++
	}
	if n == 0 {
		return "", false
	}
	s = strings.TrimLeft(s[n:], " \t")
	proto := ""
	if strings.HasPrefix(s, "(") {
		end := strings.IndexByte(s, ')')
		if end < 0 {
			return "", false
		}
		rest := strings.TrimLeft(s[end+1:], " \t")
		proto, s = s[:len(s)-len(rest)], rest
	}
	if strings.HasPrefix(s, ":") {
		end := strings.IndexAny(s, ";#")
		if end < 0 {
			end = len(s)
		}
		if end < len(s) && s[end] == ';' {
			return "", false
		}
		s = s[end:]
	}
	if !perlBlockTail(s) {
		return "", false
	}
	if proto != "" {
		return unified.Trim(proto), true
	}
	return unified.Trim(body), true
}

// perlBlockTail reports whether s is empty, or "{" and/or a comment with white space around.
func perlBlockTail(s string) bool {
	if rest, ok := strings.CutPrefix(s, "{"); ok {
		s = strings.TrimLeft(rest, " \t")
	}
	return s == "" || s[0] == '#'
}
