//go:build unix

package httpserve

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grove-mcp/grove/internal/servertest"
	"github.com/grove-mcp/grove/server"
)

// servedSerial is the serial number of the certificate base serves.
func servedSerial(t *testing.T, base string, pool *x509.CertPool) int64 {
	t.Helper()
	conn, err := tls.Dial("tcp", strings.TrimPrefix(base, "https://"), &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber.Int64()
}

// SIGHUP reloads the certificate; a broken pair keeps the previous one.
func TestTLSReloadOnSIGHUP(t *testing.T) {
	ca := newTestCA(t)
	dir := t.TempDir()
	certFile, keyFile := ca.issue(t, dir, 2)
	base := runTLS(t, server.Config{Roots: []string{servertest.RealTemp(t)}}, Config{TLSCert: certFile, TLSKey: keyFile})
	if got := servedSerial(t, base, ca.pool); got != 2 {
		t.Fatalf("serial %d, want 2", got)
	}
	ca.issue(t, dir, 3)
	waitSerial := func(want int64) {
		t.Helper()
		deadline := time.Now().Add(servertest.WaitLimit)
		for servedSerial(t, base, ca.pool) != want {
			if time.Now().After(deadline) {
				t.Fatalf("still not serial %d after %v", want, servertest.WaitLimit)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitSerial(3)
	servertest.Write(t, certFile, "not a certificate")
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the reload fails; nothing to wait for
	if got := servedSerial(t, base, ca.pool); got != 3 {
		t.Errorf("after a failed reload, serial %d, want 3", got)
	}
}
