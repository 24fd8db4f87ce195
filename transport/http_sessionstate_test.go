package transport_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/pubsub"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/transport"
)

// plainEvents is an EventStore that does not number events.
type plainEvents struct{ store.EventStore }

// TestNotifySessions: without a handler, NotifySessions appends the
// message to the GET stream, in the event store, of each session it
// names, and wakes the replica holding it over the bus; it needs a
// session store and an event store that numbers events.
func TestNotifySessions(t *testing.T) {
	ctx := context.Background()
	msg := &protocol.Request{Method: protocol.NotificationResourcesUpdated, Params: []byte(`{"uri":"x://a"}`)}
	tests := []struct {
		name    string
		opts    func(sessions store.SessionStore, events store.EventStore, bus store.Bus) *transport.HTTPOptions
		wantErr string
		want    map[string]int // session → events on its GET stream
		woken   int            // wake-ups on the sessions' topics
	}{
		{"shared stores", func(ss store.SessionStore, es store.EventStore, b store.Bus) *transport.HTTPOptions {
			return &transport.HTTPOptions{Sessions: ss, EventStore: es, Bus: b}
		}, "", map[string]int{"s1": 1, "s2": 1, "s3": 0}, 2},
		{"no bus", func(ss store.SessionStore, es store.EventStore, b store.Bus) *transport.HTTPOptions {
			return &transport.HTTPOptions{Sessions: ss, EventStore: es}
		}, "", map[string]int{"s1": 1, "s2": 1, "s3": 0}, 0},
		{"no session store", func(ss store.SessionStore, es store.EventStore, b store.Bus) *transport.HTTPOptions {
			return &transport.HTTPOptions{EventStore: es, Bus: b}
		}, "", map[string]int{"s1": 0, "s2": 0, "s3": 0}, 0},
		{"events not numbered", func(ss store.SessionStore, es store.EventStore, b store.Bus) *transport.HTTPOptions {
			return &transport.HTTPOptions{Sessions: ss, EventStore: plainEvents{es}, Bus: b}
		}, "numbers events", map[string]int{"s1": 0, "s2": 0, "s3": 0}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sessions, events, bus := transport.NewMemorySessionStore(), transport.NewMemoryEventStore(nil), pubsub.NewMemory(nil)
			defer bus.Close()
			woken := make(chan string, 8)
			for _, id := range []string{"s1", "s2", "s3"} {
				if err := sessions.Create(ctx, &store.SessionRecord{ID: id, Version: "2025-11-25"}, time.Hour); err != nil {
					t.Fatal(err)
				}
				un, err := bus.Subscribe(ctx, "mcp-session:"+id, func([]byte) { woken <- id })
				if err != nil {
					t.Fatal(err)
				}
				defer un()
			}
			err := transport.NotifySessions(ctx, tt.opts(sessions, events, bus), []string{"s1", "s2"}, msg)
			if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("NotifySessions: %v, want an error with %q", err, tt.wantErr)
			}
			for id, n := range tt.want {
				got := 0
				if err := events.Replay(ctx, id, "0", 0, func(_ int64, data []byte) error {
					if !strings.Contains(string(data), `"x://a"`) {
						t.Errorf("session %s: event %s", id, data)
					}
					got++
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				if got != n {
					t.Errorf("session %s: %d events on its GET stream, want %d", id, got, n)
				}
			}
			for range tt.woken { // the memory bus delivers before Publish returns or soon after
				select {
				case id := <-woken:
					if id == "s3" {
						t.Error("s3, not named, was woken")
					}
				case <-time.After(10 * time.Second):
					t.Fatal("a named session's replica was not woken")
				}
			}
		})
	}
}
