package httpserve

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
)

// ErrPlainBeyondLoopback is returned by [Run] for a bind beyond loopback
// without TLS and without Config.Insecure.
var ErrPlainBeyondLoopback = errors.New("listening beyond this machine's loopback over plain HTTP would send tokens and files across the network in clear: " +
	"give --http-tls-cert and --http-tls-key, or --http-insecure when a proxy in front of grove ends TLS")

// certReloader holds the operator's certificate, read again on SIGHUP so
// that a renewed certificate takes effect without a restart; a reload that
// fails keeps the previous one.
type certReloader struct {
	certFile, keyFile string
	logger            *slog.Logger

	mu   sync.RWMutex // guards cert
	cert *tls.Certificate
}

func newCertReloader(certFile, keyFile string, logger *slog.Logger) (*certReloader, error) {
	if certFile == "" || keyFile == "" {
		return nil, errors.New("--http-tls-cert and --http-tls-key go together")
	}
	r := &certReloader{certFile: certFile, keyFile: keyFile, logger: logger}
	if err := r.reload(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *certReloader) reload() error {
	c, err := tls.LoadX509KeyPair(r.certFile, r.keyFile)
	if err != nil {
		return fmt.Errorf("loading --http-tls-cert and --http-tls-key: %w", err)
	}
	r.mu.Lock()
	r.cert = &c
	r.mu.Unlock()
	return nil
}

func (r *certReloader) getCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.cert, nil
}

// watch reloads the certificate on each signal until ctx is done.
func (r *certReloader) watch(ctx context.Context, sig <-chan os.Signal) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-sig:
		}
		if err := r.reload(); err != nil {
			r.logger.Warn("TLS certificate not reloaded; keeping the previous one", "err", err)
			continue
		}
		r.logger.Info("TLS certificate reloaded", "cert", r.certFile)
	}
}

// config is the TLS configuration of grove's listener: TLS 1.2 and later,
// Go's default cipher suites, the certificate as last loaded.
func (r *certReloader) config() *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: r.getCertificate}
}
