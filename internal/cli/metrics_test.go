package cli

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/metrics"
)

func TestMetricsToken(t *testing.T) {
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte("from-a-file-0123456789\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, addr, file, env, want, wantErr string
	}{
		{name: "none on loopback", addr: "127.0.0.1:9464"},
		{name: "none beyond loopback is for Listen to refuse", addr: "0.0.0.0:9464"},
		{name: "environment", addr: "0.0.0.0:9464", env: "from-the-environment-0123", want: "from-the-environment-0123"},
		{name: "file first", addr: "127.0.0.1:9464", file: file, env: "from-the-environment-0123", want: "from-a-file-0123456789"},
		{name: "short", addr: "127.0.0.1:9464", env: "short", wantErr: "at least 16"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := metricsToken(tt.addr, tt.file, tt.env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("metricsToken = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestMountMetrics(t *testing.T) {
	if got := mountMetrics(nil, nil); got != nil {
		t.Errorf("no metrics mounted %v", got)
	}
	other := http.NotFoundHandler()
	in := map[string]http.Handler{"/other": other}
	got := mountMetrics(in, metrics.New())
	if got["/metrics"] == nil || got["/other"] == nil || len(got) != 2 {
		t.Errorf("mounted %v, want /metrics and /other", got)
	}
	if len(in) != 1 {
		t.Error("mountMetrics changed the caller's map")
	}
}
