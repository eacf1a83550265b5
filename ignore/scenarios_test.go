package ignore

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// scenario is a repository for the differential tests, from
// testdata/differential/NAME.txtar: its files, and in the comment section
// "tracked: path…" (the index's content) and "index-version: N".
type scenario struct {
	name    string
	files   string // the txtar archive
	tracked []string
	version uint32
	setup   func(t *testing.T, dir string)
}

// setups complete scenarios with what a txtar cannot say; they run after
// the repository is created.
var setups = map[string]func(t *testing.T, dir string){
	"patterns": func(t *testing.T, dir string) {
		writeFile(t, filepath.Join(dir, "escaped "), "")
		writeFile(t, filepath.Join(dir, "sub", "trailing "), "")
	},
	"globs": func(t *testing.T, dir string) {
		for _, name := range []string{"sp ", "sp  ", "sp2 ", "tab\t", "tab\t "} {
			writeFile(t, filepath.Join(dir, name), "")
		}
	},
	"exclude-sources": func(t *testing.T, dir string) {
		excludes := filepath.Join(dir, "conf", "excludes")
		writeFile(t, excludes, "*.scratch\n*.orig\n!keep.bak\n*.swp\n")
		appendFile(t, filepath.Join(dir, ".git", "config"), "[core]\n\texcludesFile = \""+excludes+"\"\n")
	},
	"relative-excludes": func(t *testing.T, dir string) {
		appendFile(t, filepath.Join(dir, ".git", "config"), "[core]\n\texcludesFile = conf/excludes\n")
	},
	"global-excludes": func(t *testing.T, dir string) {
		home, _ := os.UserHomeDir()
		writeFile(t, filepath.Join(home, ".gitconfig"), "[user]\n\tname = x\n[core]\n\texcludesfile = ~/my-excludes\n")
		writeFile(t, filepath.Join(home, "my-excludes"), "*.glob\n")
		writeFile(t, filepath.Join(home, ".config", "git", "ignore"), "*.xdg\n") // unused: excludesfile is set
	},
	"xdg-ignore": func(t *testing.T, dir string) {
		home, _ := os.UserHomeDir()
		writeFile(t, filepath.Join(home, ".config", "git", "ignore"), "*.xdg\n!b.xdg\n")
	},
	"nested-repository": func(t *testing.T, dir string) {
		initRepo(t, filepath.Join(dir, "inner"), 2, "b.md")
	},
	"gitdir-file": func(t *testing.T, dir string) {
		if err := os.Rename(filepath.Join(dir, ".git"), filepath.Join(dir, ".gitstore")); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, ".git"), "gitdir: .gitstore\n")
		writeFile(t, filepath.Join(dir, ".gitstore", "info", "exclude"), "/.gitstore/\n*.c\n")
	},
}

// loadScenarios reads testdata/differential.
func loadScenarios(t *testing.T) []scenario {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "differential", "*.txtar"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	var scs []scenario
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := scenario{name: strings.TrimSuffix(filepath.Base(name), ".txtar"), files: string(data)}
		sc.setup = setups[sc.name]
		for _, line := range strings.Split(string(txtar.Parse(data).Comment), "\n") {
			key, value, _ := strings.Cut(line, ":")
			switch key {
			case "tracked":
				sc.tracked = strings.Fields(value)
			case "index-version":
				v, _ := strconv.Atoi(strings.TrimSpace(value))
				sc.version = uint32(v)
			}
		}
		scs = append(scs, sc)
	}
	return scs
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t *testing.T, name, content string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
}
