package fsres

import (
	"context"
	"errors"
	"fmt"
	"github.com/grove-mcp/grove/fsres/internal/glob"
	"io/fs"
	"regexp"
	"strings"
	"sync"

	"github.com/grove-mcp/grove/internal/panics"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// GrepArgs are the arguments of grep.
type GrepArgs struct {
	Pattern         string `json:"pattern" jsonschema:"RE2 regular expression, matched against each line"`
	Path            string `json:"path,omitempty" jsonschema:"file or directory to search: absolute path, file:// URI, or relative to the first root (default: the only root; required when there are several)"`
	Glob            string `json:"glob,omitempty" jsonschema:"only files whose path relative to path matches this glob, e.g. **/*.go or *.md"`
	ContextLines    int    `json:"context_lines,omitempty" jsonschema:"lines of context before and after each match"`
	MaxResults      int    `json:"max_results,omitempty" jsonschema:"most matching lines to return (default 200)"`
	CaseInsensitive bool   `json:"case_insensitive,omitempty" jsonschema:"match letters regardless of case"`
}

// GrepMatch is one matching line.
type GrepMatch struct {
	Path string `json:"path" jsonschema:"relative to the searched directory"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// GrepResult is what grep answers.
type GrepResult struct {
	Path    string      `json:"path"`
	Matches []GrepMatch `json:"matches"`
	Files   int         `json:"files_searched"`
	Skipped int         `json:"files_skipped,omitempty" jsonschema:"binary files and files above the size limit"`
	Cut     bool        `json:"cut,omitempty" jsonschema:"max_results was reached; later matches are not shown"`
}

const (
	grepWorkers     = 2
	maxGrepLineText = 300 // bytes of a line shown
	maxContextLines = 20
)

// grepQuery is a compiled grep request.
type grepQuery struct {
	re      *regexp.Regexp
	glob    *glob.Glob // nil: every file
	context int
	max     int
}

func compileGrep(in GrepArgs) (*grepQuery, error) {
	if in.Pattern == "" {
		return nil, errors.New("pattern is empty")
	}
	expr := in.Pattern
	if in.CaseInsensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("bad pattern: %w", err)
	}
	q := &grepQuery{re: re, context: min(max(in.ContextLines, 0), maxContextLines), max: in.MaxResults}
	if q.max <= 0 {
		q.max = defaultMaxResults
	}
	if in.Glob != "" {
		if q.glob, err = glob.Compile(in.Glob); err != nil {
			return nil, err
		}
	}
	return q, nil
}

func (f *Files) grep(ctx context.Context, _ *mcp.CallToolRequest, sc *roots.Scope, in GrepArgs) (*mcp.CallToolResult, GrepResult, error) {
	q, err := compileGrep(in)
	if err != nil {
		return nil, GrepResult{}, err
	}
	base, single, err := f.grepBase(sc, in.Path)
	if err != nil {
		return nil, GrepResult{}, err
	}
	out, text, err := f.runGrep(ctx, base, single, q)
	if err != nil {
		return nil, GrepResult{}, roots.PublicError(shownArg(in.Path, base), err)
	}
	return textResult(text), out, nil
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

// runGrep searches on grepWorkers goroutines while this one walks; results
// are committed in walk order, so the answer is the same on every run. A
// worker that panics ends the search with an error: the files it held would
// otherwise be missing from an answer that looks whole.
func (f *Files) runGrep(ctx context.Context, base roots.Loc, single bool, q *grepQuery) (GrepResult, string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	col := newCollector(q, cancel)
	jobs := make(chan grepJob, 64)
	var wg sync.WaitGroup
	workerErrs := make([]error, grepWorkers)
	for i := range grepWorkers {
		wg.Go(func() {
			if err := f.grepWorker(ctx, jobs, col, q); err != nil {
				workerErrs[i] = err
				cancel()
			}
		})
	}
	walkErr := func() error {
		defer close(jobs) // even if the walk panics: the workers must end
		return f.feedGrep(ctx, base, single, q, jobs)
	}()
	wg.Wait()
	if err := errors.Join(workerErrs...); err != nil {
		return GrepResult{}, "", err
	}
	res, text := col.result(base.Abs())
	if walkErr != nil && !res.Cut { // when cut, we cancelled the walk ourselves
		return GrepResult{}, "", walkErr
	}
	return res, text, nil
}

// testHookGrepFile, when set by a test, runs before each file is searched.
var testHookGrepFile func(rel string)

// grepWorker searches the files of jobs until there are no more.
func (f *Files) grepWorker(ctx context.Context, jobs <-chan grepJob, col *collector, q *grepQuery) (err error) {
	defer panics.Catch(&err)
	for j := range jobs {
		if testHookGrepFile != nil {
			testHookGrepFile(j.rel)
		}
		col.add(j.idx, f.grepFile(ctx, j.loc, j.rel, q))
	}
	return nil
}

type grepJob struct {
	idx int
	loc roots.Loc
	rel string // shown in results
}

// feedGrep sends the files to search, in walk order, until ctx ends.
func (f *Files) feedGrep(ctx context.Context, base roots.Loc, single bool, q *grepQuery, jobs chan<- grepJob) error {
	if single {
		jobs <- grepJob{idx: 0, loc: base, rel: base.Rel[strings.LastIndexByte(base.Rel, '/')+1:]}
		return nil
	}
	n := 0
	return f.walkUnder(ctx, base, func(rel string, d fs.DirEntry) error {
		if !d.Type().IsRegular() || (q.glob != nil && !q.glob.Match(rel)) {
			if d.IsDir() && q.glob != nil && !q.glob.MayMatchBelow(rel) {
				return fs.SkipDir
			}
			return nil
		}
		select {
		case jobs <- grepJob{idx: n, loc: base.Join(rel), rel: rel}:
			n++
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
}
