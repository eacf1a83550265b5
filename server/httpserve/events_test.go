package httpserve

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// after collects what eventStore.After yields, and its error.
func after(s *eventStore, session, stream string, index int) ([]string, error) {
	var got []string
	for d, err := range s.After(context.Background(), session, stream, index) {
		if err != nil {
			return got, err
		}
		got = append(got, string(d))
	}
	return got, nil
}

func TestEventStoreBoundsEachSession(t *testing.T) {
	ctx := context.Background()
	s := newEventStore(3, 100, 2)
	for i := range 5 {
		s.Append(ctx, "busy", "s1", []byte(fmt.Sprint("b", i)))
	}
	s.Append(ctx, "quiet", "s1", []byte("q0"))
	for _, tt := range []struct {
		name            string
		session, stream string
		index           int
		want            []string
		wantErr         error
	}{
		{"the newest three are kept", "busy", "s1", 1, []string{"b2", "b3", "b4"}, nil},
		{"a gap is not hidden", "busy", "s1", 0, nil, mcp.ErrEventsPurged},
		{"nothing new", "busy", "s1", 4, nil, nil},
		{"a busy session leaves a quiet one alone", "quiet", "s1", -1, []string{"q0"}, nil},
		{"unknown stream", "busy", "nope", 0, nil, mcp.ErrEventsPurged},
		{"unknown session", "nope", "s1", 0, nil, mcp.ErrEventsPurged},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := after(s, tt.session, tt.stream, tt.index)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEventStoreBytesAndSessions(t *testing.T) {
	ctx := context.Background()
	s := newEventStore(100, 10, 2)
	s.Append(ctx, "a", "s1", []byte("123456"))
	s.Append(ctx, "a", "s2", []byte("7890"))
	s.Append(ctx, "a", "s1", []byte("xy")) // 12 bytes: the oldest goes
	if got, err := after(s, "a", "s2", -1); err != nil || !cmp.Equal(got, []string{"7890"}) {
		t.Errorf("s2: %v %v", got, err)
	}
	if _, err := after(s, "a", "s1", -1); !errors.Is(err, mcp.ErrEventsPurged) {
		t.Errorf("s1 from the start: %v, want purged", err)
	}
	s.Open(ctx, "b", "s")
	s.Open(ctx, "c", "s") // a third session: the oldest, a, is forgotten
	if _, err := after(s, "a", "s2", -1); !errors.Is(err, mcp.ErrEventsPurged) {
		t.Errorf("a after two newer sessions: %v, want purged", err)
	}
	s.SessionClosed(ctx, "b")
	if _, err := after(s, "b", "s", -1); !errors.Is(err, mcp.ErrEventsPurged) {
		t.Errorf("a closed session: %v, want purged", err)
	}
	if got, err := after(s, "c", "s", -1); err != nil || got != nil {
		t.Errorf("c: %v %v", got, err)
	}
}

// An evicted event counts as lost when its client comes back for it, once,
// under its method.
func TestEventStoreCountsLostEvents(t *testing.T) {
	ctx := context.Background()
	s := newEventStore(2, 1<<20, 10)
	var lost []string
	s.onLost = func(method string) { lost = append(lost, method) }
	for _, m := range []string{"notifications/resources/updated", "notifications/resources/list_changed", "notifications/resources/updated", "notifications/message"} {
		s.Append(ctx, "a", "s", []byte(`{"jsonrpc":"2.0","method":"`+m+`"}`))
	}
	if lost != nil {
		t.Fatalf("evictions counted before a client came back: %v", lost)
	}
	if _, err := after(s, "a", "s", 0); !errors.Is(err, mcp.ErrEventsPurged) { // wants 1 and on; 0 and 1 are gone
		t.Fatalf("after 0: %v, want purged", err)
	}
	if want := []string{"notifications/resources/list_changed"}; !cmp.Equal(lost, want) {
		t.Errorf("lost %v, want %v", lost, want)
	}
	after(s, "a", "s", -1)
	if want := []string{"notifications/resources/list_changed"}; !cmp.Equal(lost, want) {
		t.Errorf("counted twice: %v", lost)
	}
}
