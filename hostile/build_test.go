package hostile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// Bounds of the suite. They bound hangs, not speed: a call that takes longer
// than callTimeout is one that grove would never have answered.
const (
	callTimeout  = 10 * time.Second // the bound for a call on a hostile repository
	pingTimeout  = 2 * time.Second  // the bound for "still alive"
	closeTimeout = 20 * time.Second // grove drains in-flight calls for up to 10 s at the end of input
	writeTimeout = 30 * time.Second // one line, even 20 MiB, into a server that reads
	peakRSSLimit = 256 << 20        // the bound on VmHWM while grove meets a huge object
)

// Protocol versions the sessions negotiate.
const (
	legacyVersion = "2025-11-25" // the newest legacy version: initialize handshake, no batches
	batchVersion  = "2025-03-26" // the last version with JSON-RPC batches
	modernVersion = "2026-07-28" // per-request _meta, no session
)

var build struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
	os.Exit(code)
}

// groveBinary builds grove once per run. It is deliberately not a race build,
// whatever flags the test binary has: the peak memory the tests bound is the
// one users see, and the race detector multiplies it.
func groveBinary(t *testing.T) string {
	t.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "grove-hostile-")
		if build.err != nil {
			return
		}
		build.path = filepath.Join(build.dir, "grove")
		if runtime.GOOS == "windows" {
			build.path += ".exe"
		}
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
		}
		cmd := exec.Command(goTool, "build", "-o", build.path, "github.com/grove-mcp/grove")
		cmd.Env = append(os.Environ(), "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			build.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.path
}
