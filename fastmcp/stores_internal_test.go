package fastmcp

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestSharedStores: the shared stores give the HTTP stores, and the task
// store and key ring no other option chose; the server closes them at
// Shutdown, once.
func TestSharedStores(t *testing.T) {
	events := transport.NewMemoryEventStore(nil)
	newStores := func(closed *int) *store.Stores {
		return &store.Stores{Events: events, Tasks: store.NewMemoryTaskStore(), Keys: store.StaticKeys(store.Key{ID: "shared", Secret: make([]byte, 32)}),
			Close: func() error { *closed++; return errors.New("closing failed") }}
	}
	ownTasks, ownKeys := store.NewMemoryTaskStore(), store.StaticKeys(store.Key{ID: "own", Secret: make([]byte, 32)})
	tests := []struct {
		name                   string
		opts                   []Option
		wantTasks, wantKeys    bool // the shared ones
		wantEvents, openBefore bool
		redisURL               string // no backend is linked: it would stop start-up
		tasksAfterStart        bool   // the first tool registered with TaskSupport comes after Start
	}{
		{name: "alone", wantTasks: true, wantKeys: true, wantEvents: true},
		{name: "tasks after start", wantTasks: true, wantKeys: true, wantEvents: true, tasksAfterStart: true},
		{name: "own tasks store", opts: []Option{Tasks(TaskSettings{Store: ownTasks})}, wantKeys: true, wantEvents: true},
		{name: "own keys", opts: []Option{RequestStateKeys(ownKeys)}, wantTasks: true, wantEvents: true},
		{name: "own secret", opts: []Option{RequestStateSecret(make([]byte, 32))}, wantTasks: true, wantEvents: true},
		{name: "never started", openBefore: true},
		{name: "wins over the RedisURL setting", redisURL: "redis://127.0.0.1:1/0", wantTasks: true, wantKeys: true, wantEvents: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("FASTMCP_REDIS_URL", tt.redisURL)
			var closed int
			st := newStores(&closed)
			var logs bytes.Buffer
			s := New("x", "1", append(tt.opts, SharedStores(st), Logger(slog.New(slog.NewTextHandler(&logs, nil))))...)
			if !tt.tasksAfterStart {
				enableTasks(s)
			}
			if !tt.openBefore {
				if err := s.Start(context.Background()); err != nil {
					t.Fatal(err)
				}
				if tt.tasksAfterStart {
					enableTasks(s)
				}
				if got := taskStore(s) == st.Tasks; got != tt.wantTasks {
					t.Errorf("shared task store used: %v, want %v", got, tt.wantTasks)
				}
				if got := s.sealer.Ring() == st.Keys; got != tt.wantKeys {
					t.Errorf("shared key ring used: %v, want %v", got, tt.wantKeys)
				}
				set, _ := s.Settings()
				h := s.httpHandler(set)
				if got := s.httpOptions(set, h.cfg.Streamable).EventStore == store.EventStore(events); got != tt.wantEvents {
					t.Errorf("shared event store used: %v, want %v", got, tt.wantEvents)
				}
				_ = h.close()
			}
			if err := s.Shutdown(context.Background()); err == nil || closed != 1 {
				t.Fatalf("Shutdown = %v, closed %d times; want the Close error, once", err, closed)
			}
			_ = s.Shutdown(context.Background())
			if closed != 1 {
				t.Fatalf("closed %d times after a second Shutdown", closed)
			}
		})
	}
}
