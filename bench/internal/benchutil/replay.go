package benchutil

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
)

// Git runs the git program in repo (the replay benchmarks' oracle) and returns its standard output and exit
// code; err is set only when git could not be run.
func Git(repo string, args ...string) (string, int, error) {
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode(), nil
	}
	if err != nil {
		return "", 0, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), 0, nil
}

// Pct writes a of b as a percentage, "-" when b is 0.
func Pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(a)/float64(b))
}
