package server

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listChangedWait bounds how long a roots change waits for the SDK to send
// the list_changed it asked for. The SDK sends it after a 10 ms debounce;
// the bound only matters if no session takes it.
const listChangedWait = time.Second

// sentSignal tells when the SDK has written a resources list_changed
// notification. A roots change waits for it, so that the request that waited
// for the new roots is answered after the client was told its list changed,
// and a session that ends soon after still hears of it.
type sentSignal struct {
	mu sync.Mutex    // guards ch
	ch chan struct{} // closed at the next send; nil while no one waits
}

// next returns a channel closed once a list_changed is sent after the call.
func (s *sentSignal) next() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

func (s *sentSignal) fire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
}

// middleware is a sending middleware that fires s when list_changed goes out.
func (s *sentSignal) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method == "notifications/resources/list_changed" {
			s.fire()
		}
		return res, err
	}
}

// resourcesChanged tells the initialized sessions that the resource list
// changed, and waits (a little) until it is sent.
func (s *Server) resourcesChanged() {
	if !s.anyInitialized() {
		return
	}
	sent := s.listSent.next()
	s.files.ListChanged(s.mcp)
	t := time.NewTimer(listChangedWait)
	defer t.Stop()
	select {
	case <-sent:
	case <-t.C:
	}
}
