package transport_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestStreamableLoad runs 200 sessions making 50 calls each, all at once,
// and checks that every call gets its own answer.
func TestStreamableLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	t.Parallel()
	const sessions, calls = 200, 50
	f := newFixture(t, nil, nil)
	// One HTTP client shared by all sessions, as an application would.
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 256
	defer tr.CloseIdleConnections()
	hc := &transport.HTTPClientOptions{HTTPClient: &http.Client{Transport: tr}, Logger: quiet, ReconnectDelay: 20 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for s := range sessions {
		wg.Go(func() {
			cli := session.New(transport.NewStreamableClient(f.url, hc), session.Options{Role: session.RoleClient, Logger: quiet})
			defer cli.Close()
			if _, err := cli.Initialize(ctx, &protocol.InitializeParams{ProtocolVersion: protocol.LatestLegacyVersion, ClientInfo: protocol.Implementation{Name: "load", Version: "1"}}); err != nil {
				errs <- fmt.Errorf("session %d: initialize: %w", s, err)
				return
			}
			for i := range calls {
				var res addResult
				if err := cli.Call(ctx, "add", addParams{s, i}, &res); err != nil {
					errs <- fmt.Errorf("session %d call %d: %w", s, i, err)
					return
				}
				if res.Sum != s+i {
					errs <- fmt.Errorf("session %d call %d: got %d, want %d", s, i, res.Sum, s+i)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d calls in %v", sessions*calls, time.Since(start))
}
