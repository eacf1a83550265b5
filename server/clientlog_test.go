package server

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/roots"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// LogArgs are the arguments of the test tool log_for_client.
type LogArgs struct {
	Level int `json:"level"`
	N     int `json:"n"`
}

// connectLogging is connectWatching with a tool, log_for_client, that logs
// one client record with the request's context: level and n as given.
func connectLogging(t *testing.T, cfg Config, era string, clientRoots ...string) (*mcp.ClientSession, *mcp.Client, servertest.Events, *Server) {
	t.Helper()
	cs, client, ev, s := connectWatching(t, cfg, era, clientRoots...)
	mcp.AddTool(s.MCP(), &mcp.Tool{Name: "log_for_client"}, func(ctx context.Context, _ *mcp.CallToolRequest, in LogArgs) (*mcp.CallToolResult, any, error) {
		s.logger.Log(ctx, slog.Level(in.Level), "test record", clientAudience, "n", in.N)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "logged"}}}, nil, nil
	})
	return cs, client, ev, s
}

func logForClient(t *testing.T, cs *mcp.ClientSession, level slog.Level, n int, meta mcp.Meta) {
	t.Helper()
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "log_for_client",
		Arguments: LogArgs{Level: int(level), N: n}, Meta: meta})
	if err != nil {
		t.Fatal(err)
	}
}

// nextLogged returns the next client log record.
func nextLogged(t *testing.T, ev servertest.Events) *mcp.LoggingMessageParams {
	t.Helper()
	select {
	case p := <-ev.Logged:
		return p
	case <-time.After(servertest.WaitLimit):
		t.Fatalf("no notifications/message within %v", servertest.WaitLimit)
		return nil
	}
}

// loggedN is the n of a log_for_client record.
func loggedN(p *mcp.LoggingMessageParams) float64 {
	data, _ := p.Data.(map[string]any)
	n, _ := data["n"].(float64)
	return n
}

// Legacy: records go out at or above the level set with logging/setLevel,
// none before it is set.
func TestClientLogFollowsSetLevel(t *testing.T) {
	cs, _, ev, _ := connectLogging(t, Config{Roots: []string{servertest.RealTemp(t)}}, servertest.Legacy)
	logForClient(t, cs, slog.LevelError, 1, nil) // no level set yet: nothing
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "error"}); err != nil {
		t.Fatal(err)
	}
	logForClient(t, cs, slog.LevelWarn, 2, nil) // below the level
	logForClient(t, cs, mcp.LevelCritical, 3, nil)
	p := nextLogged(t, ev)
	if loggedN(p) != 3 || p.Level != "critical" || p.Logger != "grove" {
		t.Errorf("first record: %+v, want n 3 at critical from grove", p)
	}
}

// Modern: a record goes out only for a request whose _meta carries a
// logLevel, at or above it; a record no request caused goes nowhere.
func TestClientLogModernNeedsRequestLevel(t *testing.T) {
	cs, _, ev, s := connectLogging(t, Config{Roots: []string{servertest.RealTemp(t)}}, servertest.Modern)
	logForClient(t, cs, slog.LevelError, 1, nil)
	logForClient(t, cs, slog.LevelInfo, 2, mcp.Meta{mcp.MetaKeyLogLevel: "warning"})
	s.logger.Error("background record", clientAudience, "n", 3)
	logForClient(t, cs, slog.LevelWarn, 4, mcp.Meta{mcp.MetaKeyLogLevel: "warning"})
	if p := nextLogged(t, ev); loggedN(p) != 4 || p.Level != "warning" {
		t.Errorf("first record: %+v, want n 4 at warning", p)
	}
}

// Only records marked for the client leave the process, and only their
// plain attributes: no errors, stacks or absolute paths; a record whose
// message holds a path is not sent at all.
func TestClientLogSanitizes(t *testing.T) {
	cs, _, ev, s := connectLogging(t, Config{Roots: []string{servertest.RealTemp(t)}}, servertest.Legacy)
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	log := s.logger.With("component", "test")
	log.Warn("operator only", "n", 1)
	log.Warn("refused /home/someone/secret", clientAudience, "n", 2)
	log.WithGroup("g").Warn("for the client", clientAudience,
		"n", 3, "uri", "file:///in/root.txt", "rel", "src/main.go", "path", "/outside/secret.txt",
		"why", "open /outside/secret.txt: permission denied", "err", errors.New("open /x: denied"),
		"stack", "goroutine 1", slog.Group("sub", "k", "v", "p", "/etc/passwd"), "d", time.Second, "ok", true,
		"obj", struct{ A string }{"/x"})
	p := nextLogged(t, ev)
	want := map[string]any{"msg": "for the client", "g.n": 3.0, "g.uri": "file:///in/root.txt", "g.rel": "src/main.go",
		"g.sub.k": "v", "g.d": "1s", "g.ok": true}
	if diff := cmp.Diff(want, p.Data); diff != "" || p.Logger != "grove/test" || p.Level != "warning" {
		t.Errorf("record (logger %q, level %q) mismatch (-want +got):\n%s", p.Logger, p.Level, diff)
	}
}

// A client root grove refuses is logged for the client, by the URI it sent.
func TestClientLogRefusedRoot(t *testing.T) {
	base := servertest.RealTemp(t)
	servertest.Mkdirs(t, base, "proj/sub", "other")
	proj, sub, other := filepath.Join(base, "proj"), filepath.Join(base, "proj", "sub"), filepath.Join(base, "other")
	cs, client, ev, _ := connectLogging(t, Config{Roots: []string{proj}}, servertest.Legacy, sub)
	listRoots(t, cs)
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	client.AddRoots(&mcp.Root{URI: roots.URI(other)})
	if out := listRoots(t, cs); len(out.Ignored) != 1 {
		t.Fatalf("list_roots ignored %q, want the other root", out.Ignored)
	}
	p := nextLogged(t, ev)
	data, _ := p.Data.(map[string]any)
	root, _ := data["root"].(string)
	if data["msg"] != "client root ignored" || !strings.HasPrefix(root, roots.URI(other)+" (") || p.Logger != "grove/roots" {
		t.Errorf("record %+v, want client root ignored for %s", p, roots.URI(other))
	}
}

// Reaching the watch limit is logged for the client, without paths.
func TestClientLogWatchLimit(t *testing.T) {
	dir := servertest.RealTemp(t)
	servertest.Mkdirs(t, dir, "a")
	cs, _, ev, _ := connectLogging(t, Config{Roots: []string{dir}, MaxWatches: 2}, servertest.Legacy) // the root and a/: at the limit
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	servertest.Mkdirs(t, dir, "b") // one more directory: past it
	p := nextLogged(t, ev)
	data, _ := p.Data.(map[string]any)
	b, _ := json.Marshal(data)
	if m, _ := data["msg"].(string); !strings.HasPrefix(m, "watch limit reached") || data["watched_directories"] != 2.0 ||
		strings.Contains(string(b), dir) || p.Level != "warning" || p.Logger != "grove/watch" {
		t.Errorf("record %s (level %s), want the watch limit without paths", b, p.Level)
	}
}

func TestMCPLevel(t *testing.T) {
	for _, tt := range []struct {
		level slog.Level
		want  mcp.LoggingLevel
	}{
		{slog.LevelDebug - 4, "debug"}, {slog.LevelDebug, "debug"}, {slog.LevelInfo, "info"}, {slog.LevelInfo + 1, "info"},
		{mcp.LevelNotice, "notice"}, {slog.LevelWarn, "warning"}, {slog.LevelError, "error"}, {slog.LevelError + 2, "error"},
		{mcp.LevelCritical, "critical"}, {mcp.LevelAlert, "alert"}, {mcp.LevelEmergency + 100, "emergency"},
	} {
		if got := mcpLevel(tt.level); got != tt.want {
			t.Errorf("mcpLevel(%v) = %q, want %q", tt.level, got, tt.want)
		}
	}
}

func TestLimiter(t *testing.T) {
	now := time.Unix(0, 0)
	l := &limiter{burst: 3, rate: 2, now: func() time.Time { return now }}
	var got []bool
	step := func(d time.Duration, n int) {
		now = now.Add(d)
		for range n {
			got = append(got, l.allow())
		}
	}
	step(0, 4)                    // the burst, then nothing
	step(250*time.Millisecond, 1) // half a token
	step(250*time.Millisecond, 2) // one token
	step(10*time.Second, 4)       // refilled to the burst only
	want := []bool{true, true, true, false, false, true, false, true, true, true, false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("allow mismatch (-want +got):\n%s", diff)
	}
}

func TestHasPath(t *testing.T) {
	for s, want := range map[string]bool{
		"/etc/passwd": true, "open /x: denied": true, `"/x"`: true, "a=/x": true, "(/x)": true,
		"file:///x/y": false, "src/main.go": false, "1/2": false, "": false, "--root DIR": false,
	} {
		if got := hasPath(s); got != want {
			t.Errorf("hasPath(%q) = %v, want %v", s, got, want)
		}
	}
}
