package session_test

import (
	"context"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// A server session started as another replica's client initialized it
// answers at once, knows the client, and sends requests with ids of its
// prefix.
func TestSessionStartedInitialized(t *testing.T) {
	cc, sc := transport.NewPipe()
	srv := session.New(sc, session.Options{
		Role: session.RoleServer, Logger: quiet,
		Version: protocol.Version20251125,
		Initialized: &protocol.InitializeParams{
			ProtocolVersion: protocol.Version20251125,
			Capabilities:    protocol.ClientCapabilities{Sampling: &protocol.SamplingCapability{}},
			ClientInfo:      protocol.Implementation{Name: "elsewhere", Version: "2"},
		},
		LogLevel:        protocol.LevelWarning,
		RequestIDPrefix: "r1-",
	})
	var seen []string
	cli := session.New(cc, session.Options{Role: session.RoleClient, Logger: quiet,
		Handler: session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
			seen = append(seen, req.ID.Raw())
			return map[string]any{}, nil
		})})
	t.Cleanup(func() { cli.Close(); srv.Close() })
	if !srv.Initialized() || srv.ProtocolVersion() != protocol.Version20251125 {
		t.Fatalf("initialized %v at %q", srv.Initialized(), srv.ProtocolVersion())
	}
	if got := srv.ClientInfo().Name; got != "elsewhere" {
		t.Errorf("client %q", got)
	}
	if srv.ClientCapabilities().Sampling == nil {
		t.Error("the client's sampling capability is missing")
	}
	if got := srv.LogLevel(); got != protocol.LevelWarning {
		t.Errorf("log level %q", got)
	}
	ctx := context.Background()
	for range 2 {
		if err := srv.Call(ctx, "roots/list", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{`"r1-1"`, `"r1-2"`}; len(seen) != 2 || seen[0] != want[0] || seen[1] != want[1] {
		t.Errorf("request ids %q, want %q", seen, want)
	}
}
