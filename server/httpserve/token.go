package httpserve

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
)

// TokenEnv names the environment variable that may hold the HTTP token.
const TokenEnv = "GROVE_HTTP_TOKEN"

// IntrospectAuthEnv names the environment variable holding grove's client
// credentials for the introspection endpoint, as client_id:client_secret.
const IntrospectAuthEnv = "GROVE_HTTP_INTROSPECT_AUTH"

// Addr completes an --http value: a bare port means the loopback
// address, which is where grove listens unless told otherwise.
func Addr(v string) string {
	if !strings.Contains(v, ":") {
		return net.JoinHostPort("127.0.0.1", v)
	}
	return v
}

// Loopback reports whether addr (host:port) binds to loopback only. An empty
// host (":8848") binds every interface.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Token decides the bearer token: the contents of file when given, else
// the environment's (env is os.Getenv(TokenEnv)), else a new random one
// (generated is then true). A bind beyond loopback needs an explicit token:
// a generated one shows only on this machine's terminal.
func Token(addr, file, env string) (token string, generated bool, err error) {
	switch {
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return "", false, fmt.Errorf("--http-token-file: %w", err)
		}
		token = strings.TrimSpace(string(b))
		if token == "" {
			return "", false, errors.New("--http-token-file: the file is empty")
		}
	case env != "":
		token = strings.TrimSpace(env)
	case !Loopback(addr):
		return "", false, fmt.Errorf("--http %s listens beyond this machine's loopback: give a token with --http-token-file FILE or %s "+
			"(or listen on 127.0.0.1)", addr, TokenEnv)
	default:
		return rand.Text(), true, nil
	}
	if strings.ContainsAny(token, " \t\r\n") || len(token) < 16 {
		return "", false, errors.New("the HTTP token must be at least 16 characters, without spaces")
	}
	return token, false, nil
}

// URL is the Streamable HTTP URL clients use for a bound address; secure
// when grove serves TLS.
func URL(addr net.Addr, secure bool) string {
	scheme := "http://"
	if secure {
		scheme = "https://"
	}
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return scheme + addr.String() + "/mcp"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return scheme + net.JoinHostPort(host, port) + "/mcp"
}

// ClientConfig is the ready-to-paste client configuration for url, with
// the token when grove generated it, or a reference to where the operator
// keeps theirs.
func ClientConfig(url, token string, generated bool) string {
	auth := "Bearer " + token
	var b strings.Builder
	fmt.Fprintf(&b, "grove: serving MCP over HTTP at %s\n", url)
	if generated {
		fmt.Fprintf(&b, "grove: a token was generated for this run (keep one across runs with %s or --http-token-file):\n", TokenEnv)
	} else {
		auth = "Bearer $" + TokenEnv
		fmt.Fprintf(&b, "grove: clients must send your token:\n")
	}
	fmt.Fprintf(&b, "  Authorization: %s\n\n", auth)
	fmt.Fprintf(&b, "Claude Code:\n  claude mcp add --transport http grove %s --header \"Authorization: %s\"\n\n", url, auth)
	fmt.Fprintf(&b, "VS Code (.vscode/mcp.json):\n  {\"servers\": {\"grove\": {\"type\": \"http\", \"url\": %q, \"headers\": {\"Authorization\": %q}}}}\n", url, auth)
	base := strings.TrimSuffix(url, "/mcp")
	fmt.Fprintf(&b, "\nOther transports, same token: HTTP+SSE (2024-11-05) at %s/sse; WebSocket at %s/ws\n", base, "ws"+strings.TrimPrefix(base, "http"))
	return b.String()
}

// OAuthClientConfig tells the operator where clients connect when grove
// takes the tokens of an authorization server: clients find it through
// grove's Protected Resource Metadata and sign in there.
func OAuthClientConfig(url, issuer, resource string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "grove: serving MCP over HTTP at %s\n", url)
	fmt.Fprintf(&b, "grove: clients sign in with the authorization server %s (OAuth 2.1); tokens must name %s as their audience\n", issuer, resource)
	fmt.Fprintf(&b, "  Protected Resource Metadata: %s\n\n", metadataURL(resource))
	fmt.Fprintf(&b, "Claude Code:\n  claude mcp add --transport http grove %s\n\n", url)
	fmt.Fprintf(&b, "VS Code (.vscode/mcp.json):\n  {\"servers\": {\"grove\": {\"type\": \"http\", \"url\": %q}}}\n", url)
	return b.String()
}
