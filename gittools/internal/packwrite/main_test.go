package packwrite

import (
	"os"
	"testing"

	"github.com/grove-mcp/grove/internal/testenv"
)

// TestMain says once that git is missing, instead of failing every test that
// checks grove against it.
func TestMain(m *testing.M) { os.Exit(testenv.NeedGit(m)) }
