package httpserve

import (
	"fmt"
	"net"
	"sync"
	"time"
)

// limitListener holds at most max connections open, and at most perClient
// from one address: past either, a new connection is refused (a plain-HTTP
// 503 when the listener is not under TLS, where no handshake happened yet
// to answer in) and closed. Sessions and requests have their own limits;
// this one bounds the sockets and goroutines an idle or hostile client can
// make grove hold.
type limitListener struct {
	net.Listener
	max, perClient int
	plain          bool

	mu       sync.Mutex // guards the fields below
	total    int
	byClient map[string]int
}

func newLimitListener(ln net.Listener, max, perClient int, plain bool) *limitListener {
	return &limitListener{Listener: ln, max: max, perClient: perClient, plain: plain, byClient: make(map[string]int)}
}

// refusal is the whole answer to a connection past a limit.
const refusal = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 5\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"

// refusalBody is refusal's body, a JSON-RPC error as for every refusal.
const refusalBody = `{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Service Unavailable: too many connections (--http-max-conns, --http-max-conns-per-client)","data":{"httpStatus":503}}}`

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		client := clientOf(c.RemoteAddr())
		if l.admit(client) {
			return &limitedConn{Conn: c, l: l, client: client}, nil
		}
		l.refuse(c)
	}
}

func (l *limitListener) admit(client string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total >= l.max || l.byClient[client] >= l.perClient {
		return false
	}
	l.total++
	l.byClient[client]++
	return true
}

func (l *limitListener) release(client string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total--
	if l.byClient[client]--; l.byClient[client] <= 0 {
		delete(l.byClient, client)
	}
}

// refuse answers and closes c without reading from it; the write goes to a
// fresh socket's empty buffer, and the deadline bounds it anyway.
func (l *limitListener) refuse(c net.Conn) {
	if l.plain {
		c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		c.Write([]byte(refusalResponse))
	}
	c.Close()
}

var refusalResponse = fmt.Sprintf(refusal, len(refusalBody), refusalBody)

// clientOf is the address a connection comes from, without its port.
func clientOf(a net.Addr) string {
	if host, _, err := net.SplitHostPort(a.String()); err == nil {
		return host
	}
	return a.String()
}

// limitedConn gives its place back when closed, once.
type limitedConn struct {
	net.Conn
	l      *limitListener
	client string
	once   sync.Once
}

func (c *limitedConn) Close() error {
	c.once.Do(func() { c.l.release(c.client) })
	return c.Conn.Close()
}
