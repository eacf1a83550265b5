package httpserve

import (
	"net/http"
	"time"
)

// writeDeadlines bounds each write of a response, event streams included:
// a client that stops reading holds grove's writer, and what waits to be
// written after it, for at most the write timeout; then the write fails and
// the session's stream ends, as a WebSocket's does. (http.Server's
// WriteTimeout cannot do it: it bounds the whole response, and a stream
// lasts as long as its session.) The deadline is cleared when the handler
// returns, since the connection may serve further requests.
func (f *front) writeDeadlines(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dw := &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: f.hc.writeTimeout}
		defer dw.rc.SetWriteDeadline(time.Time{})
		next.ServeHTTP(dw, r)
	})
}

type deadlineWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	return w.ResponseWriter.Write(p)
}

func (w *deadlineWriter) Flush() {
	w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	w.rc.Flush()
}

func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
