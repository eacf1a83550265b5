package testenv

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var (
	// runsGit matches a test that starts the git program itself.
	runsGit = regexp.MustCompile(`exec\.Command(Context)?\([^()]*"git"`)
	// checksGit matches a TestMain that goes through NeedGit.
	checksGit = regexp.MustCompile(`func TestMain\(m \*testing\.M\) \{[^}]*(testenv\.)?NeedGit\(m\)`)
)

const gittestImport = "github.com/grove-mcp/grove/gittools/internal/gittest"

// TestGitPackagesCheckForGit walks the module: every package whose tests run
// git, themselves or through gittest, has the TestMain that reports a missing
// git once, so that a new one cannot bring back a wall of failures.
func TestGitPackagesCheckForGit(t *testing.T) {
	var need, have []string
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name()[0] == '.') && path != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := strings.TrimPrefix(filepath.ToSlash(filepath.Dir(path)), "../../")
		imports := slices.ContainsFunc(f.Imports, func(s *ast.ImportSpec) bool {
			p, _ := strconv.Unquote(s.Path.Value)
			return p == gittestImport
		})
		if imports || runsGit.Match(src) {
			need = append(need, dir)
		}
		if checksGit.Match(src) {
			have = append(have, dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(need) == 0 {
		t.Fatal("found no test that runs git; the walk is broken")
	}
	var missing []string
	for _, dir := range need {
		if !slices.Contains(have, dir) && !slices.Contains(missing, dir) {
			missing = append(missing, dir)
		}
	}
	if diff := cmp.Diff([]string(nil), missing); diff != "" {
		t.Errorf("packages whose tests run git but lack `func TestMain(m *testing.M) { os.Exit(testenv.NeedGit(m)) }` (-want +got):\n%s", diff)
	}
}
