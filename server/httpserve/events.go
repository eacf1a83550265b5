package httpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// eventStore keeps the recent events of each session's streams, so that a
// client that reconnects with Last-Event-ID gets what it missed. Unlike the
// SDK's MemoryEventStore, whose one byte budget is shared by every session
// (a busy session purges a quiet one's history), each session has its own
// bounds: maxEvents events and maxBytes bytes, oldest dropped first; and at
// most maxSessions sessions are kept, the oldest forgotten first, since the
// SDK does not promise to call SessionClosed.
type eventStore struct {
	maxEvents, maxBytes, maxSessions int
	onAppend                         func(data []byte)   // for tests; called with s.mu held
	onLost                           func(method string) // an evicted event a client came back for; called with s.mu held

	mu       sync.Mutex // guards the fields below
	sessions map[string]*sessionEvents
	order    []string // session IDs, oldest first
}

// sessionEvents is one session's streams, and the order events were kept in
// across them.
type sessionEvents struct {
	streams map[string]*eventList
	queue   []string // stream of each kept event, oldest first
	bytes   int
}

// eventList is one stream's kept events; data[i] has index first+i. The
// methods of the latest evicted events are remembered (at most maxEvents of
// them; gone[i] has index first-len(gone)+i), so that a client coming back
// for them counts as the notifications it lost; those below lostTo were
// counted already (or the client had them).
type eventList struct {
	first  int
	data   [][]byte
	gone   []string
	lostTo int
}

// evict drops the oldest kept event, remembering its method, and returns
// its size.
func (l *eventList) evict(maxGone int) int {
	n := len(l.data[0])
	var m struct {
		Method string `json:"method"`
	}
	json.Unmarshal(l.data[0], &m) // a response has none; it counts under the empty method
	if l.gone = append(l.gone, m.Method); len(l.gone) > maxGone {
		l.gone = l.gone[len(l.gone)-maxGone:]
	}
	l.data[0] = nil
	l.data = l.data[1:]
	l.first++
	return n
}

// lost reports, once each, the evicted events from index start on.
func (l *eventList) lost(start int, report func(method string)) {
	from := l.first - len(l.gone)
	for i := max(start, l.lostTo); i < l.first; i++ {
		if i < from {
			report("")
		} else {
			report(l.gone[i-from])
		}
	}
	l.lostTo = l.first
}

var _ mcp.EventStore = (*eventStore)(nil)

func newEventStore(maxEvents, maxBytes, maxSessions int) *eventStore {
	return &eventStore{maxEvents: maxEvents, maxBytes: maxBytes, maxSessions: maxSessions,
		sessions: make(map[string]*sessionEvents)}
}

// stream returns the list of a stream, creating it (and its session);
// s.mu must be held.
func (s *eventStore) stream(sessionID, streamID string) *eventList {
	se := s.sessions[sessionID]
	if se == nil {
		se = &sessionEvents{streams: make(map[string]*eventList)}
		s.sessions[sessionID] = se
		s.order = append(s.order, sessionID)
		for len(s.order) > s.maxSessions {
			delete(s.sessions, s.order[0])
			s.order = s.order[1:]
		}
	}
	l := se.streams[streamID]
	if l == nil {
		l = &eventList{}
		se.streams[streamID] = l
	}
	return l
}

func (s *eventStore) Open(_ context.Context, sessionID, streamID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stream(sessionID, streamID)
	return nil
}

func (s *eventStore) Append(_ context.Context, sessionID, streamID string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.stream(sessionID, streamID)
	se := s.sessions[sessionID]
	l.data = append(l.data, data)
	se.queue = append(se.queue, streamID)
	se.bytes += len(data)
	if s.onAppend != nil {
		s.onAppend(data)
	}
	for len(se.queue) > s.maxEvents || (se.bytes > s.maxBytes && len(se.queue) > 1) {
		oldest := se.streams[se.queue[0]]
		se.queue = se.queue[1:]
		se.bytes -= oldest.evict(s.maxEvents)
	}
	return nil
}

// After yields the events of a stream after index, or ErrEventsPurged when
// some of them are no longer kept: a client must not take a gap for the
// whole story.
func (s *eventStore) After(_ context.Context, sessionID, streamID string, index int) iter.Seq2[[]byte, error] {
	s.mu.Lock()
	var data [][]byte
	var err error
	l := s.sessions[sessionID].lookup(streamID)
	switch start := index + 1; {
	case l == nil:
		err = fmt.Errorf("unknown stream %q: %w", streamID, mcp.ErrEventsPurged)
	case start < l.first:
		err = fmt.Errorf("events after %d of stream %q: %w", index, streamID, mcp.ErrEventsPurged)
		if s.onLost != nil {
			l.lost(start, s.onLost)
		}
	case start-l.first < len(l.data):
		data = append([][]byte(nil), l.data[start-l.first:]...)
	}
	s.mu.Unlock()
	return func(yield func([]byte, error) bool) {
		if err != nil {
			yield(nil, err)
			return
		}
		for _, d := range data {
			if !yield(d, nil) {
				return
			}
		}
	}
}

func (se *sessionEvents) lookup(streamID string) *eventList {
	if se == nil {
		return nil
	}
	return se.streams[streamID]
}

func (s *eventStore) SessionClosed(_ context.Context, sessionID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.sessions[sessionID]; ok {
		delete(s.sessions, sessionID)
		for i, id := range s.order {
			if id == sessionID {
				s.order = append(s.order[:i], s.order[i+1:]...)
				break
			}
		}
	}
	return nil
}
