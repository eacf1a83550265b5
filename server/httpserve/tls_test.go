package httpserve

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testCA is a certificate authority made for one test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pool *x509.CertPool
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "grove test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &testCA{cert: cert, key: key, pool: pool}
}

// issue writes a certificate for 127.0.0.1, ::1 and localhost, with serial,
// and its key, as PEM files in dir.
func (ca *testCA) issue(t *testing.T, dir string, serial int64) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "grove"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	servertest.Write(t, certFile+".tmp", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})))
	servertest.Write(t, keyFile+".tmp", string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})))
	for _, f := range []string{certFile, keyFile} {
		if err := os.Rename(f+".tmp", f); err != nil {
			t.Fatal(err)
		}
	}
	return certFile, keyFile
}

// runTLS runs grove over TLS until the test ends, and returns its base URL
// (https://127.0.0.1:port).
func runTLS(t *testing.T, cfg server.Config, hc Config) string {
	t.Helper()
	hc.Addr, hc.Token = "127.0.0.1:0", testToken
	ready := make(chan net.Addr, 1)
	hc.Ready = func(a net.Addr) { ready <- a }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, cfg, hc) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(servertest.WaitLimit):
			t.Error("Run did not return after its context ended")
		}
	})
	select {
	case a := <-ready:
		return "https://" + a.String()
	case err := <-done:
		t.Fatalf("Run: %v", err)
	case <-time.After(servertest.WaitLimit):
		t.Fatal("grove did not start")
	}
	return ""
}

func tlsClient(pool *x509.CertPool) *http.Client {
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
}

// bearerOver adds the token to requests sent with c.
type bearerOver struct{ c *http.Client }

func (b bearerOver) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+testToken)
	return b.c.Transport.RoundTrip(r)
}

func TestTLSEveryTransport(t *testing.T) {
	ca := newTestCA(t)
	certFile, keyFile := ca.issue(t, t.TempDir(), 2)
	base := runTLS(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{TLSCert: certFile, TLSKey: keyFile})
	hc := &http.Client{Transport: bearerOver{tlsClient(ca.pool)}}
	for _, tt := range []struct {
		name string
		tr   mcp.Transport
	}{
		{"streamable", &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: hc}},
		{"sse", &mcp.SSEClientTransport{Endpoint: base + "/sse", HTTPClient: hc}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs, _, _ := connectOver(t, tt.tr, servertest.Legacy)
			if err := cs.Ping(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("websocket", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), servertest.WaitLimit)
		defer cancel()
		ws, _, err := websocket.Dial(ctx, "wss"+strings.TrimPrefix(base, "https")+"/ws", &websocket.DialOptions{
			Subprotocols: []string{wsSubprotocol}, HTTPHeader: authHeader(), HTTPClient: tlsClient(ca.pool)})
		if err != nil {
			t.Fatal(err)
		}
		defer ws.CloseNow()
		rw := &rawWS{t: t, ws: ws}
		rw.send(initializeBody)
		rw.expect(`"protocolVersion"`)
	})
	t.Run("own https origin", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(initializeBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Origin", base)
		res, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("status %d, want 200", res.StatusCode)
		}
	})
	t.Run("TLS 1.1", func(t *testing.T) {
		c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.pool, MaxVersion: tls.VersionTLS11}}}
		if res, err := c.Get(base + "/mcp"); err == nil {
			res.Body.Close()
			t.Error("a TLS 1.1 client was served")
		}
	})
	t.Run("plain HTTP", func(t *testing.T) {
		res, err := http.Get("http" + strings.TrimPrefix(base, "https") + "/mcp")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK || res.StatusCode == http.StatusUnauthorized {
				t.Errorf("plain HTTP got %d", res.StatusCode)
			}
		}
	})
	t.Run("unknown CA", func(t *testing.T) {
		if res, err := tlsClient(newTestCA(t).pool).Get(base + "/mcp"); err == nil {
			res.Body.Close()
			t.Error("a certificate from another CA was trusted")
		}
	})
}

func TestTLSConfigErrors(t *testing.T) {
	roots := server.Config{Roots: []string{servertest.RealTemp(t)}}
	for _, tt := range []struct {
		name    string
		hc      Config
		wantErr error
		wantMsg string
	}{
		{"plain beyond loopback", Config{Addr: "0.0.0.0:0"}, ErrPlainBeyondLoopback, "--http-insecure"},
		{"plain on every interface", Config{Addr: ":0"}, ErrPlainBeyondLoopback, "in clear"},
		{"cert without key", Config{Addr: "127.0.0.1:0", TLSCert: "x.pem"}, nil, "go together"},
		{"missing files", Config{Addr: "127.0.0.1:0", TLSCert: "/nonexistent/c.pem", TLSKey: "/nonexistent/k.pem"}, nil, "--http-tls-cert"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.hc.Token = testToken
			err := Run(context.Background(), roots, tt.hc)
			if err == nil || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("Run: %v, want %v with %q", err, tt.wantErr, tt.wantMsg)
			}
		})
	}
}
