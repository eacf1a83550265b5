package fsres

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/grove-mcp/grove/fsres/internal/glob"
	"github.com/grove-mcp/grove/fsres/internal/grep"
	"github.com/grove-mcp/grove/internal/jsonenc"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// GrepArgs are the arguments of grep.
type GrepArgs struct {
	Pattern         string `json:"pattern" jsonschema:"RE2 regular expression, matched against each line (^ and $ at line boundaries)"`
	Path            string `json:"path,omitempty" jsonschema:"file or directory to search: absolute path, file:// URI, or relative to the first root (default: the only root; required when there are several)"`
	Glob            string `json:"glob,omitempty" jsonschema:"only files whose path relative to path matches this glob, e.g. **/*.go or *.md"`
	Type            string `json:"type,omitempty" jsonschema:"only files of this type, as ripgrep's --type: go, py, js, ts, c, cpp, rust, java, md, json, yaml, sh, …"`
	OutputMode      string `json:"output_mode,omitempty" jsonschema:"content (default): matching lines; files_with_matches: only the paths; count: matching lines per file" enum:"content,files_with_matches,count"`
	ContextLines    int    `json:"context_lines,omitempty" jsonschema:"lines of context before and after each match (at most 20)"`
	Before          int    `json:"before,omitempty" jsonschema:"lines of context before each match; overrides context_lines"`
	After           int    `json:"after,omitempty" jsonschema:"lines of context after each match; overrides context_lines"`
	MaxResults      int    `json:"max_results,omitempty" jsonschema:"most matching lines to return, or files in files_with_matches and count modes (default 200)"`
	CaseInsensitive bool   `json:"case_insensitive,omitempty" jsonschema:"match letters regardless of case"`
	FixedStrings    bool   `json:"fixed_strings,omitempty" jsonschema:"the pattern is a literal string, not a regular expression"`
	Word            bool   `json:"word,omitempty" jsonschema:"match only whole words: the match is bounded by non-word characters or line ends"`
	Multiline       bool   `json:"multiline,omitempty" jsonschema:"the pattern may span lines (\\n matches a line break; . matches one only under (?s))"`
}

// GrepMatch is one matching line.
type GrepMatch struct {
	Path string `json:"path" jsonschema:"relative to the searched directory"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// GrepCount is the number of matching lines in one file.
type GrepCount struct {
	Path  string `json:"path" jsonschema:"relative to the searched directory"`
	Count int    `json:"count"`
}

// GrepResult is what grep answers.
type GrepResult struct {
	Path    string      `json:"path"`
	Matches []GrepMatch `json:"matches"`
	Listed  []string    `json:"files,omitempty" jsonschema:"files_with_matches mode: the files with a match"`
	Counts  []GrepCount `json:"counts,omitempty" jsonschema:"count mode: matching lines per file"`
	Total   int         `json:"total_matches" jsonschema:"matching lines shown (content) or counted"`
	Files   int         `json:"files_searched"`
	Skipped int         `json:"files_skipped,omitempty" jsonschema:"binary files and files above the size limit"`
	Cut     bool        `json:"cut,omitempty" jsonschema:"max_results was reached; later matches are not shown"`

	pre *jsonenc.Handoff // this JSON, made with the text (renderContent), or nil
}

const maxContextLines = 20

// grepRequest turns the arguments into a search request and the walk's
// file filter.
func (f *Files) grepRequest(in GrepArgs) (grep.Request, func(rel string) bool, error) {
	p, err := grep.Compile(in.Pattern, grep.Options{FixedStrings: in.FixedStrings, Word: in.Word,
		CaseInsensitive: in.CaseInsensitive, Multiline: in.Multiline})
	if err != nil {
		return grep.Request{}, nil, err
	}
	req := grep.Request{Pattern: p, Max: in.MaxResults, MaxFileSize: f.opts.MaxReadBytes,
		Before: contextLines(in.Before, in.ContextLines), After: contextLines(in.After, in.ContextLines)}
	if req.Max <= 0 {
		req.Max = defaultMaxResults
	}
	switch in.OutputMode {
	case "", "content":
	case "files_with_matches":
		req.Mode = grep.FilesWithMatches
	case "count":
		req.Mode = grep.Count
	default:
		return grep.Request{}, nil, fmt.Errorf("output_mode must be content, files_with_matches or count, not %q", in.OutputMode)
	}
	keep, err := fileFilter(in.Glob, in.Type)
	return req, keep, err
}

func contextLines(own, both int) int {
	if own > 0 {
		return min(own, maxContextLines)
	}
	return min(max(both, 0), maxContextLines)
}

// fileFilter combines glob and type; nil keeps every file.
func fileFilter(globArg, typeArg string) (func(rel string) bool, error) {
	var g *glob.Glob
	var typ func(string) bool
	var err error
	if globArg != "" {
		if g, err = glob.Compile(globArg); err != nil {
			return nil, err
		}
	}
	if typeArg != "" {
		if typ, err = grep.TypeFilter(typeArg); err != nil {
			return nil, err
		}
	}
	if g == nil && typ == nil {
		return nil, nil
	}
	return func(rel string) bool {
		return (g == nil || g.Match(rel)) && (typ == nil || typ(path.Base(rel)))
	}, nil
}

func (f *Files) grep(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in GrepArgs) (*mcp.CallToolResult, GrepResult, error) {
	req, keep, err := f.grepRequest(in)
	if err != nil {
		return nil, GrepResult{}, err
	}
	base, single, err := f.grepBase(sc, in.Path)
	if err != nil {
		return nil, GrepResult{}, err
	}
	tree := f.grepTree(base, single, keep, in.Glob)
	if f.grams != nil {
		defer f.grams.Begin()() // an index build this grep starts waits for it, and its answer, to end
	}
	if err := f.useIndex(ctx, base, single, keep, &req, &tree); err != nil { // trigram index (fsres.go)
		return nil, GrepResult{}, err
	}
	res, err := grep.Search(ctx, req, tree)
	if err != nil {
		return nil, GrepResult{}, roots.PublicError(shownArg(in.Path, base), err)
	}
	out, text, quoted, err := f.grepAnswer(base.Abs(), req, res)
	if err != nil {
		return nil, GrepResult{}, err
	}
	if f.grams != nil {
		f.grams.Settle(answerTime(len(text), len(out.Matches)))
	}
	if quoted == nil {
		return textResult(text), out, nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&quotedText{&mcp.TextContent{Text: text}, quoted}}}, out, nil
}

// answerTime is how long an answer of text and matches may take to be encoded, written and read by
// the client once the handler returns, for an index build to wait (trigram.Indexes.Settle): a fixed
// part, then 40 ms a MB of text and of JSON (about 80 bytes a match besides its text). On 2 cores
// at load 5, for a first grep `return` of git/git (a 3.1 MB answer), builds held 64 ms, 196 ms and
// 300 ms after its handler returned left 590–770, 450–570 and 250–410 ms of CPU in that call, up to
// the answer's last byte (bench/cmd/grepbench -reps 5, two runs each).
func answerTime(text, matches int) time.Duration {
	const base, perMB = 50 * time.Millisecond, 40 * time.Millisecond
	mb := float64(2*text+80*matches) / 1e6
	return base + time.Duration(mb*float64(perMB))
}

// grepBase resolves the path to search: a directory, or a single file.
func (f *Files) grepBase(sc *roots.Scope, p string) (roots.Loc, bool, error) {
	if p != "" {
		loc, err := resolve(sc, p)
		if err != nil {
			return roots.Loc{}, false, err
		}
		info, err := loc.Stat()
		if err != nil {
			return roots.Loc{}, false, roots.PublicError(p, err)
		}
		if !info.IsDir() {
			return loc, true, nil
		}
	}
	loc, err := f.resolveDir(sc, p)
	return loc, false, err
}

// testHookGrepFile, when set by a test, runs before each file is opened.
var testHookGrepFile func(rel string)

// grepTree is what a search of base reads: the file itself, or the
// non-ignored regular files below it that keep accepts.
func (f *Files) grepTree(base roots.Loc, single bool, keep func(string) bool, globArg string) grep.Tree {
	if single {
		name := base.Rel[strings.LastIndexByte(base.Rel, '/')+1:]
		return grep.Tree{
			Walk:      func(_ context.Context, visit func(string) error) error { return visit(name) },
			NewOpener: func() grep.Opener { return &locOpener{loc: base} },
		}
	}
	var g *glob.Glob
	if globArg != "" {
		g, _ = glob.Compile(globArg) // compiled once already by fileFilter
	}
	walk := func(ctx context.Context, visit func(string) error) error {
		return f.walkUnder(ctx, base, func(rel string, d fs.DirEntry) error {
			if d.IsDir() {
				if g != nil && !g.MayMatchBelow(rel) {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || keep != nil && !keep(rel) {
				return nil
			}
			return visit(rel)
		})
	}
	opener := grep.DirOpener(base.FS(), base.Rel)
	return grep.Tree{Walk: walk, NewOpener: func() grep.Opener { return hookedOpener{opener()} }}
}

// hookedOpener calls testHookGrepFile before each open.
type hookedOpener struct{ grep.Opener }

func (o hookedOpener) Open(rel string) (*os.File, error) {
	if testHookGrepFile != nil {
		testHookGrepFile(rel)
	}
	return o.Opener.Open(rel)
}

// Lent forwards grep.Lender: the search must not read a file into a text
// the opener only lent.
func (o hookedOpener) Lent(data []byte) bool {
	l, ok := o.Opener.(grep.Lender)
	return ok && l.Lent(data)
}

func (o hookedOpener) ReadFile(rel string, limit int64, buf []byte) ([]byte, error) {
	if testHookGrepFile != nil {
		testHookGrepFile(rel)
	}
	return grep.ReadFile(o.Opener, rel, limit, buf)
}

// locOpener opens one file the way every tool does (a single-file root
// included).
type locOpener struct{ loc roots.Loc }

func (o *locOpener) Open(string) (*os.File, error) {
	if testHookGrepFile != nil {
		testHookGrepFile(o.loc.Rel)
	}
	file, _, err := o.loc.OpenFile()
	return file, err
}

func (o *locOpener) Close() {}
