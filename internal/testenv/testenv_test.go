package testenv

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMain(m *testing.M) { os.Exit(NeedGit(m)) }

type runner struct{ ran bool }

type outcome struct {
	Code int
	Ran  bool
	Out  string
}

func (r *runner) Run() int {
	r.ran = true
	return 7
}

// emptyPath is a PATH under which no program is found.
func emptyPath(t *testing.T) string {
	return filepath.Join(t.TempDir(), "empty")
}

func TestNeedGit(t *testing.T) {
	gitDir := t.TempDir()
	git := filepath.Join(gitDir, "git")
	if runtime.GOOS == "windows" {
		git += ".exe"
	}
	if err := os.WriteFile(git, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name     string
		path     func(t *testing.T) string
		wantCode int
		wantRan  bool
		wantOut  string
	}{
		{"git on PATH runs the tests", func(*testing.T) string { return gitDir }, 7, true, ""},
		{"no git says so once and runs nothing", emptyPath, 1, false, "testenv: " + GitMissing + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("PATH", tt.path(t))
			var out bytes.Buffer
			r := &runner{}
			code := needGit(r, &out)
			got := outcome{code, r.ran, out.String()}
			want := outcome{tt.wantCode, tt.wantRan, tt.wantOut}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("needGit mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTestBinaryWithoutGit runs this package's own test binary, whose TestMain
// is the one every git-using package has, with a PATH that holds nothing: it
// must fail with the one line and run no test.
func TestTestBinaryWithoutGit(t *testing.T) {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestNeedGit$", "-test.v")
	cmd.Env = append(os.Environ(), "PATH="+emptyPath(t))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("test binary without git: %v, want exit status 1; output:\n%s", err, out)
	}
	if n := strings.Count(string(out), GitMissing); n != 1 {
		t.Errorf("the missing-git line appears %d times, want once; output:\n%s", n, out)
	}
	if strings.Contains(string(out), "=== RUN") {
		t.Errorf("tests ran without git; output:\n%s", out)
	}
}
