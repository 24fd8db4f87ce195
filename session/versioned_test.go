package session_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// versioned is a Conn that records the revisions the engine tells it.
type versioned struct {
	transport.Conn
	mu   sync.Mutex
	told []string
}

func (c *versioned) SetProtocolVersion(v string) {
	c.mu.Lock()
	c.told = append(c.told, v)
	c.mu.Unlock()
}

func (c *versioned) got() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.told)
}

// versionedPair starts a server with handler h and a client over
// versioned Conns, and sends initialize asking for version.
func versionedPair(t *testing.T, h session.Handler, version string) (srvConn, cliConn *versioned, err error) {
	t.Helper()
	cc, sc := transport.NewPipe()
	cliConn, srvConn = &versioned{Conn: cc}, &versioned{Conn: sc}
	srv := session.New(srvConn, session.Options{Role: session.RoleServer, Handler: h, Logger: quiet})
	cli := session.New(cliConn, session.Options{Role: session.RoleClient, Logger: quiet})
	t.Cleanup(func() { cli.Close(); srv.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = cli.Initialize(ctx, &protocol.InitializeParams{ProtocolVersion: version, ClientInfo: protocol.Implementation{Name: "test", Version: "1"}})
	if err == nil {
		err = cli.Call(ctx, "echo", map[string]int{"n": 1}, nil)
	}
	return srvConn, cliConn, err
}

// The engine, which negotiates, tells both transports the revision once:
// transports never learn it from the messages.
func TestEngineTellsTransportTheRevision(t *testing.T) {
	srv, cli, err := versionedPair(t, withInitialize(echo), protocol.Version20250618)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{protocol.Version20250618}
	if got := srv.got(); !slices.Equal(got, want) {
		t.Errorf("server transport told %q, want %q", got, want)
	}
	if got := cli.got(); !slices.Equal(got, want) {
		t.Errorf("client transport told %q, want %q", got, want)
	}
}

// A failed handshake settles nothing.
func TestEngineTellsNothingWithoutHandshake(t *testing.T) {
	refuse := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		return nil, errors.New("no")
	})
	badVersion := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		return &protocol.InitializeResult{ProtocolVersion: "1999-01-01"}, nil
	})
	for name, h := range map[string]session.Handler{"refused": refuse, "unsupported answer": badVersion} {
		t.Run(name, func(t *testing.T) {
			srv, cli, err := versionedPair(t, h, protocol.LatestLegacyVersion)
			if err == nil {
				t.Fatal("handshake succeeded")
			}
			if got := cli.got(); len(got) != 0 {
				t.Errorf("client transport told %q", got)
			}
			if name == "refused" && len(srv.got()) != 0 {
				t.Errorf("server transport told %q", srv.got())
			}
		})
	}
}
