package oauthserver_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/oauthclient"
	"github.com/fastmcp-go/fastmcp/oauthserver"
	"github.com/fastmcp-go/fastmcp/oauthserver/oauthtest"
)

type identity struct {
	Subject  string `json:"subject"`
	ClientID string `json:"client_id"`
}

// TestProtect: a fastmcp server protected by Protect serves the whole
// authorization server on its own origin, and our client (dynamic
// registration, PKCE, the demo login and consent driven over HTTP) logs
// in end to end and calls a tool as the user, with a bearer token, then
// with a DPoP-bound one.
func TestProtect(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	origin := "http://" + ln.Addr().String()
	quiet := slog.New(slog.DiscardHandler)
	as, err := oauthserver.New(oauthserver.Config{Issuer: origin, Resources: []string{origin + "/mcp"}, Login: oauthserver.DemoLogin(), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	s := fastmcp.New("protected", "1.0.0", fastmcp.Auth(as.Protect(origin+"/mcp")), fastmcp.Listener(ln), fastmcp.Logger(quiet))
	s.Tool("whoami", func(c *fastmcp.Context) (identity, error) {
		info := c.Auth()
		if info == nil {
			return identity{}, errors.New("no token")
		}
		return identity{Subject: info.Subject, ClientID: info.ClientID}, nil
	})
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- s.Run(sctx) }()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	status := 0
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(origin + "/mcp")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if status = resp.StatusCode; status != http.StatusServiceUnavailable { // 503 while Run starts
			break
		}
	}
	if status != http.StatusUnauthorized {
		t.Fatalf("without a token: %d, want 401", status)
	}
	for _, dpop := range []bool{false, true} {
		store := oauthclient.NewMemoryStore()
		cl, err := client.ConnectHTTP(ctx, origin+"/mcp", client.WithLogger(quiet), client.OAuth(oauthclient.Config{
			ClientName: "protect test", OpenURL: oauthtest.New("alice").OpenURL, Logger: quiet, DPoP: dpop, Store: store,
		}))
		if err != nil {
			t.Fatal(err)
		}
		res, err := cl.CallTool(ctx, "whoami", nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(res.StructuredContent), `"subject":"alice"`) {
			t.Errorf("DPoP %v: whoami = %s, want subject alice", dpop, res.StructuredContent)
		}
		if err := cl.Close(); err != nil {
			t.Error(err)
		}
		rec, err := store.Load(ctx, origin+"/mcp")
		if err != nil || rec == nil || rec.Token == nil {
			t.Fatalf("the client's record: %+v, %v", rec, err)
		}
		if want := map[bool]string{false: "Bearer", true: "DPoP"}[dpop]; !strings.EqualFold(rec.Token.TokenType, want) {
			t.Errorf("DPoP %v: token type %q, want %s", dpop, rec.Token.TokenType, want)
		}
	}
}
