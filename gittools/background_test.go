package gittools

import (
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/grove-mcp/grove/gittools/internal/repo"

	"github.com/grove-mcp/grove/scope"
)

// lockedBuilder is a strings.Builder safe for a logger on another goroutine.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A panic in background work (go-git on a crafted repository, say) is
// logged and ends that work alone; the process, and Close, go on.
func TestBackgroundPanicIsContained(t *testing.T) {
	var logged lockedBuilder
	r := New(Options{Scope: scope.Static(nil), Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	ran := make(chan struct{})
	r.background("test work", func() {
		close(ran)
		var p *repo.Repo
		_ = p.Worktree // nil dereference: a runtime panic
	})
	<-ran
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if out := logged.String(); !strings.Contains(out, "test work") || !strings.Contains(out, "nil pointer") {
		t.Errorf("the panic was not logged: %s", out)
	}
}
