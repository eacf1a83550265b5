package httpserve

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/grove-mcp/grove/internal/servertest"
)

func TestHTTPToken(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	servertest.Write(t, good, "  file-token-0123456789\n")
	empty := filepath.Join(dir, "empty")
	servertest.Write(t, empty, "\n")
	short := filepath.Join(dir, "short")
	servertest.Write(t, short, "abc")
	for _, tt := range []struct {
		name, addr, file, env string
		want                  string // "" with wantErr; "generated" for a new one
		wantErr               string
	}{
		{name: "file first", addr: "127.0.0.1:1", file: good, env: "env-token-0123456789", want: "file-token-0123456789"},
		{name: "env", addr: "127.0.0.1:1", env: "env-token-0123456789", want: "env-token-0123456789"},
		{name: "generated on loopback", addr: "127.0.0.1:1", want: "generated"},
		{name: "generated on localhost", addr: "localhost:1", want: "generated"},
		{name: "generated on ::1", addr: "[::1]:1", want: "generated"},
		{name: "all interfaces need one", addr: ":1", wantErr: "--http-token-file"},
		{name: "0.0.0.0 needs one", addr: "0.0.0.0:1", wantErr: "--http-token-file"},
		{name: "a LAN address needs one", addr: "192.168.1.2:1", wantErr: "GROVE_HTTP_TOKEN"},
		{name: "a LAN address with env", addr: "192.168.1.2:1", env: "env-token-0123456789", want: "env-token-0123456789"},
		{name: "missing file", addr: "127.0.0.1:1", file: filepath.Join(dir, "nope"), wantErr: "--http-token-file"},
		{name: "empty file", addr: "127.0.0.1:1", file: empty, wantErr: "empty"},
		{name: "short token", addr: "127.0.0.1:1", file: short, wantErr: "at least 16"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, generated, err := Token(tt.addr, tt.file, tt.env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "generated" {
				if !generated || len(got) < 26 {
					t.Errorf("token %q (generated %v), want a new random one", got, generated)
				}
				return
			}
			if got != tt.want || generated {
				t.Errorf("token %q (generated %v), want %q", got, generated, tt.want)
			}
		})
	}
}

func TestHTTPAddr(t *testing.T) {
	for in, want := range map[string]string{"8848": "127.0.0.1:8848", "127.0.0.1:1": "127.0.0.1:1", ":1": ":1"} {
		if got := Addr(in); got != want {
			t.Errorf("Addr(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClientConfigHidesAnExplicitToken(t *testing.T) {
	got := ClientConfig("http://127.0.0.1:1/mcp", "secret-token-0123456789", false)
	if strings.Contains(got, "secret-token") || !strings.Contains(got, "$"+TokenEnv) {
		t.Errorf("an operator's token was printed:\n%s", got)
	}
	got = ClientConfig("http://127.0.0.1:1/mcp", "NEWTOKEN", true)
	for _, want := range []string{"claude mcp add --transport http grove http://127.0.0.1:1/mcp --header \"Authorization: Bearer NEWTOKEN\"", `"type": "http"`} {
		if !strings.Contains(got, want) {
			t.Errorf("config lacks %q:\n%s", want, got)
		}
	}
}
