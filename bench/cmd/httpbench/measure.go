package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A workload is one request, made again and again.
type workload struct {
	name string
	do   func(context.Context, *mcp.ClientSession) error
}

func workloads(fx fixture) []workload {
	uri := "file://" + fx.read
	return []workload{
		{"resources/read 4 KiB", func(ctx context.Context, cs *mcp.ClientSession) error {
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				return err
			}
			if len(res.Contents) != 1 || len(res.Contents[0].Text) != readFileBytes {
				return fmt.Errorf("read %d contents, want one of %d bytes", len(res.Contents), readFileBytes)
			}
			return nil
		}},
		{"git_status", func(ctx context.Context, cs *mcp.ClientSession) error {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "git_status", Arguments: map[string]any{"repo_path": fx.root}})
			if err != nil {
				return err
			}
			if res.IsError {
				return errors.New("git_status answered an error")
			}
			return nil
		}},
	}
}

// row is one cell's result.
type row struct {
	workload, transport string
	sessions            int
	latencies           []time.Duration
	elapsed             time.Duration
	errors              int
}

const protocol = "2025-11-25"

func measureStdio(ctx context.Context, cfg config, fx fixture, w workload) (row, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "httpbench", Version: "1"}, nil)
	cmd := exec.Command(cfg.grove, "--root", fx.root, "--log-level", "error")
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		return row{}, err
	}
	defer cs.Close()
	r := drive(ctx, cfg, []*mcp.ClientSession{cs}, w)
	r.transport = "stdio"
	return r, nil
}

// bearer adds the token to every request, as a configured client does.
type bearer struct {
	token string
	rt    http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.rt.RoundTrip(r)
}

func measureHTTP(ctx context.Context, cfg config, fx fixture, w workload, n int) (row, error) {
	const token = "httpbench-token-0123456789abcdef"
	url, stop, err := startHTTP(cfg.grove, fx.root, token, n)
	if err != nil {
		return row{}, err
	}
	defer stop()
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 4 * n // a POST and a GET stream per session, without churn
	hc := &http.Client{Transport: bearer{token, transport}}
	client := mcp.NewClient(&mcp.Implementation{Name: "httpbench", Version: "1"}, nil)
	var sessions []*mcp.ClientSession
	defer func() {
		for _, cs := range sessions {
			cs.Close()
		}
	}()
	for range n {
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
		if err != nil {
			return row{}, err
		}
		sessions = append(sessions, cs)
	}
	r := drive(ctx, cfg, sessions, w)
	r.transport = "HTTP"
	return r, nil
}

// startHTTP starts grove --http on a free loopback port and returns its URL
// and a function that stops it (SIGTERM, then waits).
func startHTTP(bin, root, token string, sessions int) (string, func(), error) {
	cmd := exec.Command(bin, "--http", "127.0.0.1:0", "--root", root, "--log-level", "error",
		"--http-max-sessions", fmt.Sprint(max(64, 2*sessions)))
	cmd.Env = append(os.Environ(), "GROVE_HTTP_TOKEN="+token)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "grove: serving MCP over HTTP at "); ok {
				select {
				case found <- u:
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case u := <-found:
		return u, stop, nil
	case <-time.After(30 * time.Second):
		stop()
		return "", nil, errors.New("grove --http did not say where it listens")
	}
}

// drive runs w on every session at once, each sending its next request when
// the last is answered, and records the requests started after the warm-up.
func drive(ctx context.Context, cfg config, sessions []*mcp.ClientSession, w workload) row {
	r := row{workload: w.name, sessions: len(sessions)}
	warmEnd := time.Now().Add(cfg.warmup)
	end := warmEnd.Add(cfg.duration)
	var mu sync.Mutex // guards r and last
	var last time.Time
	var wg sync.WaitGroup
	for _, cs := range sessions {
		wg.Go(func() {
			var lat []time.Duration
			var errs int
			for {
				t0 := time.Now()
				if t0.After(end) {
					break
				}
				err := w.do(ctx, cs)
				d := time.Since(t0)
				if t0.Before(warmEnd) {
					continue
				}
				if err != nil {
					errs++
					continue
				}
				lat = append(lat, d)
			}
			mu.Lock()
			defer mu.Unlock()
			r.latencies = append(r.latencies, lat...)
			r.errors += errs
			if now := time.Now(); now.After(last) {
				last = now
			}
		})
	}
	wg.Wait()
	r.elapsed = last.Sub(warmEnd)
	return r
}
