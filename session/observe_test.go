package session_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// TestNotifyObserver: a context given WithNotifyObserver reports each
// notification sent with it (or a context derived from it) once written,
// with its method and params; notifications sent with other contexts are
// not reported.
func TestNotifyObserver(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []string
	observe := func(ctx context.Context, method string, params json.RawMessage) {
		mu.Lock()
		seen = append(seen, method+" "+string(params))
		mu.Unlock()
	}
	h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		octx := session.WithNotifyObserver(ctx, observe)
		tok, _ := req.ProgressToken()
		if err := req.Session.Notify(octx, protocol.NotificationProgress, &protocol.ProgressParams{ProgressToken: tok, Progress: 1}); err != nil {
			return nil, err
		}
		derived, cancel := context.WithCancel(octx)
		defer cancel()
		if err := req.Session.Notify(derived, protocol.NotificationMessage, json.RawMessage(`{"level":"info","data":"hi"}`)); err != nil {
			return nil, err
		}
		// Not observed: sent with the handler's own context.
		if err := req.Session.Notify(ctx, protocol.NotificationMessage, json.RawMessage(`{"level":"info","data":"unseen"}`)); err != nil {
			return nil, err
		}
		return nil, nil
	})
	_, cli := pair(t, h, nil)
	if err := cli.Call(context.Background(), "work", nil, nil, session.WithProgress(func(*protocol.ProgressParams) {})); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{
		`notifications/progress {"progressToken":2,"progress":1}`, // the token is the call's id; initialize was 1
		`notifications/message {"level":"info","data":"hi"}`,
	}
	if !slices.Equal(seen, want) {
		t.Errorf("observed\n%q\nwant\n%q", seen, want)
	}
}

// TestWithIDReport: the id WithIDReport reports is the one the peer's
// handler sees.
func TestWithIDReport(t *testing.T) {
	t.Parallel()
	seen := make(chan protocol.ID, 1)
	h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		seen <- req.ID
		return nil, nil
	})
	_, cli := pair(t, h, nil)
	var reported protocol.ID
	if err := cli.Call(context.Background(), "work", nil, nil, session.WithIDReport(func(id protocol.ID) { reported = id })); err != nil {
		t.Fatal(err)
	}
	if got := <-seen; !reported.IsValid() || reported != got {
		t.Errorf("reported id %v, the server saw %v", reported, got)
	}
}
