// Package testenv checks, once per test binary, the programs that tests need
// besides Go, so that a missing one is reported in one clear line instead of
// as dozens of failing tests. Only tests import it.
//
// A package whose tests run git as an oracle starts with:
//
//	func TestMain(m *testing.M) { os.Exit(testenv.NeedGit(m)) }
package testenv

import (
	"io"
	"os"
	"os/exec"
)

// GitMissing is what a test binary says, once, when git is not on PATH.
const GitMissing = "these tests need git on PATH (grove itself never runs git): " +
	"install it with e.g. `apt install git` (macOS: `xcode-select --install`, Windows: `winget install Git.Git`), then run the tests again"

// Runner runs a package's tests; *testing.M is one.
type Runner interface{ Run() int }

// NeedGit runs m's tests when the git program is on PATH. Otherwise it writes
// GitMissing to stderr and returns 1 without running any test: the tests use
// git as the reference that grove's answers are checked against, and without
// it every one of them would fail on its own.
func NeedGit(m Runner) int {
	return needGit(m, os.Stderr)
}

func needGit(m Runner, w io.Writer) int {
	if _, err := exec.LookPath("git"); err != nil {
		io.WriteString(w, "testenv: "+GitMissing+"\n")
		return 1
	}
	return m.Run()
}
