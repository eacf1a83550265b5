package httpserve

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// jsonErrors turns the plain-text error answers of net/http and the SDK
// (http.Error) into JSON-RPC error bodies without an id, as the transport
// spec allows for HTTP-level refusals, so that a client can show why it was
// refused; and it adds the WWW-Authenticate challenge to a 401. Answers that
// are already JSON, and every success, pass untouched.
func jsonErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.(*errorWriter); ok {
			next.ServeHTTP(w, r)
			return
		}
		ew := &errorWriter{ResponseWriter: w}
		next.ServeHTTP(ew, r)
		ew.finish()
	})
}

// maxErrorText bounds the message kept from a plain-text error body.
const maxErrorText = 512

type errorWriter struct {
	http.ResponseWriter
	status int          // a plain-text error status held back; 0 otherwise
	text   bytes.Buffer // its message
}

func (w *errorWriter) WriteHeader(code int) {
	if code == http.StatusUnauthorized && w.Header().Get("WWW-Authenticate") == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="grove"`)
	}
	if code >= 400 && w.status == 0 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.status = code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *errorWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		return w.ResponseWriter.Write(p)
	}
	if room := maxErrorText - w.text.Len(); room > 0 {
		w.text.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// Flush lets the SDK's event streams through.
func (w *errorWriter) Flush() {
	if w.status == 0 {
		http.NewResponseController(w.ResponseWriter).Flush()
	}
}

func (w *errorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes the held-back error as JSON-RPC.
func (w *errorWriter) finish() {
	if w.status == 0 {
		return
	}
	body, _ := json.Marshal(httpErrorBody(w.status, strings.TrimSpace(w.text.String())))
	h := w.Header()
	h.Set("Content-Type", "application/json")
	w.ResponseWriter.WriteHeader(w.status)
	w.ResponseWriter.Write(body)
}

// rpcErrorBody is a JSON-RPC error response with a null id.
type rpcErrorBody struct {
	JSONRPC string `json:"jsonrpc"`
	ID      any    `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    struct {
			HTTPStatus int `json:"httpStatus"`
		} `json:"data"`
	} `json:"error"`
}

// httpErrorBody maps an HTTP refusal to a JSON-RPC error: the client's fault
// (4xx) is Invalid Request, the server's (5xx) Internal Error; the HTTP
// status goes in data.
func httpErrorBody(status int, msg string) rpcErrorBody {
	var b rpcErrorBody
	b.JSONRPC = "2.0"
	b.Error.Code = -32600
	if status >= 500 {
		b.Error.Code = -32603
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	b.Error.Message = msg
	b.Error.Data.HTTPStatus = status
	return b
}
