package cli

import (
	"context"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"sync"

	"github.com/grove-mcp/grove/internal/panics"
	"github.com/grove-mcp/grove/metrics"
	"github.com/grove-mcp/grove/server/httpserve"
)

// startMetrics makes the metrics when something will serve them: --metrics
// ADDR's own listener, or /metrics beside /mcp with --http. It returns nil
// metrics when neither is asked for, and a stop function that ends the
// listener and waits for it.
func startMetrics(ctx context.Context, opts Options, logger *slog.Logger) (*metrics.Metrics, func(), error) {
	if opts.MetricsAddr == "" && opts.HTTP.Addr == "" {
		return nil, func() {}, nil
	}
	m := metrics.New()
	if opts.MetricsAddr == "" {
		return m, func() {}, nil
	}
	addr := httpserve.Addr(opts.MetricsAddr)
	token, err := metricsToken(addr, opts.TokenFile, os.Getenv(httpserve.TokenEnv))
	if err != nil {
		return nil, nil, err
	}
	ln, err := metrics.Listen(addr, token)
	if err != nil {
		return nil, nil, err
	}
	logger.Info("serving metrics", "url", "http://"+ln.Addr().String()+"/metrics", "token", token != "")
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer panics.Log(logger, "serving metrics")
		if err := m.Serve(ctx, ln, metrics.ServeOptions{Token: token, Logger: logger.With("component", "metrics")}); err != nil {
			logger.Error("metrics listener stopped", "err", err)
		}
	})
	return m, func() { cancel(); wg.Wait() }, nil
}

// mountMetrics adds /metrics to the paths --http serves (behind its Host,
// Origin and token checks) when there are metrics.
func mountMetrics(mount map[string]http.Handler, m *metrics.Metrics) map[string]http.Handler {
	if m == nil {
		return mount
	}
	out := maps.Clone(mount)
	if out == nil {
		out = make(map[string]http.Handler)
	}
	out["/metrics"] = m.Handler()
	return out
}

// metricsToken is the token a metrics scrape must carry: the HTTP token
// when the operator gave one (file or environment), else none. Unlike --http,
// --metrics generates none: on loopback the metrics need none, and beyond
// it Listen refuses to serve without one.
func metricsToken(addr, file, env string) (string, error) {
	if file == "" && env == "" {
		return "", nil
	}
	token, _, err := httpserve.Token(addr, file, env)
	return token, err
}
