package transport

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestSSEEventMessage checks which events the clients hand to Read: only a
// "message" event (or one without a type) whose data is a JSON-RPC message;
// malformed data is logged.
func TestSSEEventMessage(t *testing.T) {
	const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	tests := []struct {
		name   string
		ev     sseEvent
		ok     bool
		logged bool
	}{
		{"message", sseEvent{Data: []byte(ping)}, true, false},
		{"typed message", sseEvent{Type: "message", Data: []byte(ping)}, true, false},
		{"priming", sseEvent{ID: "1", HasID: true}, false, false},
		{"other type", sseEvent{Type: "endpoint", Data: []byte(ping)}, false, false},
		{"malformed", sseEvent{Data: []byte(`{"jsonrpc":`)}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log bytes.Buffer
			msg, ok := tt.ev.message(slog.New(slog.NewTextHandler(&log, nil)))
			if ok != tt.ok || (msg != nil) != tt.ok {
				t.Errorf("message() = %v, %v; want ok %v", msg, ok, tt.ok)
			}
			if got := strings.Contains(log.String(), "malformed"); got != tt.logged {
				t.Errorf("logged %q, want a malformed-message warning: %v", log.String(), tt.logged)
			}
		})
	}
}
