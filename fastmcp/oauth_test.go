package fastmcp_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
	"github.com/fastmcp-go/fastmcp/oauthclient"
	"github.com/fastmcp-go/fastmcp/transport"
)

// follow plays the browser: it follows the authorization page's redirect
// back to the client's loopback listener.
func follow(ctx context.Context, authURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// TestOAuth connects with client.OAuth to a server behind
// auth.RequireBearerToken, over each HTTP transport and era: the first
// connection authorizes (registration, the browser, the token), the others
// reuse the stored token.
func TestOAuth(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	s := newServer()
	type none struct{}
	s.Tool("whoami", func(ctx *fastmcp.Context, _ none) (string, error) { return ctx.Auth().Subject, nil })
	t.Cleanup(func() { closeNow(s) })
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	md, err := auth.MetadataHandler(&auth.ProtectedResourceMetadata{Resource: ts.URL, AuthorizationServers: []string{as.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/.well-known/oauth-protected-resource", md)
	mux.Handle("/", auth.RequireBearerToken(auth.JWT(as.URL(), ts.URL), &auth.BearerOptions{ResourceMetadataURL: ts.URL + "/.well-known/oauth-protected-resource"})(s))

	store := oauthclient.NewMemoryStore()
	cfg := oauthclient.Config{ClientName: "e2e", Store: store, OpenURL: follow, Logger: quietLogger}
	for _, tc := range []struct {
		name, path string
		era        client.Option
	}{
		{"streamable-legacy", "/mcp", legacy},
		{"streamable-modern", "/mcp", eras[1].opt},
		{"sse", "/sse", legacy},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := client.ConnectHTTP(ctxT(t), ts.URL+tc.path, tc.era, client.WithLogger(quietLogger), client.OAuth(cfg))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			res, err := c.CallTool(ctxT(t), "whoami", nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := textOf(t, res); got != oauthtest.DefaultSubject {
				t.Errorf("whoami = %q, want %q", got, oauthtest.DefaultSubject)
			}
		})
	}
	auths := as.Authorizations()
	// The store is keyed by the server URL: /mcp and /sse authorize once each.
	if auths != 2 {
		t.Errorf("%d authorizations, want 2 (one per endpoint URL)", auths)
	}

	t.Run("refused", func(t *testing.T) {
		declined := func(context.Context, string) error { return errors.New("the user closed the browser") }
		_, err := client.ConnectHTTP(ctxT(t), ts.URL+"/other", legacy, client.WithLogger(quietLogger),
			client.OAuth(oauthclient.Config{OpenURL: declined, Logger: quietLogger}))
		oe, ok := errors.AsType[*oauthclient.Error](err)
		if !ok || oe.Op != "authorize" {
			t.Fatalf("error %v; want an *oauthclient.Error from the authorize step", err)
		}
	})

	t.Run("bad configuration", func(t *testing.T) {
		_, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", client.OAuth(oauthclient.Config{RedirectURL: "http://example.com/cb"}))
		if err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Fatalf("error %v; want one about the RedirectURL", err)
		}
	})
}

// TestOAuthWithServerAuth connects with client.OAuth to a server protected
// by fastmcp.Auth: the client finds the metadata the server publishes,
// logs in, and the tool sees the token's subject, in both eras.
func TestOAuthWithServerAuth(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	s := newServer(fastmcp.Auth(auth.Protect(auth.JWT(as.URL(), base+"/mcp"))))
	type none struct{}
	s.Tool("whoami", func(ctx *fastmcp.Context, _ none) (string, error) { return ctx.Auth().Subject, nil })
	if err := s.Start(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeNow(s) })
	ts := &httptest.Server{Listener: ln, Config: &http.Server{Handler: s}}
	ts.Start()
	t.Cleanup(ts.Close)

	store := oauthclient.NewMemoryStore()
	for _, era := range []client.Option{legacy, eras[1].opt} {
		c, err := client.ConnectHTTP(ctxT(t), base+"/mcp", era, client.WithLogger(quietLogger),
			client.OAuth(oauthclient.Config{Store: store, OpenURL: follow, Logger: quietLogger}))
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.CallTool(ctxT(t), "whoami", nil)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := textOf(t, res); got != oauthtest.DefaultSubject {
			t.Errorf("whoami = %q, want %q", got, oauthtest.DefaultSubject)
		}
	}
	if n := as.Authorizations(); n != 1 {
		t.Errorf("%d authorizations, want 1 (the second connection reuses the token)", n)
	}
}

// TestOAuthRefusalIsFinal checks that an authorization that fails ends the
// connection attempt at once (issue 29, item 9): it is not taken for an
// answer lost in transit (re-issued) nor for a legacy server (initialize,
// which authorizes again). A user who declines sees one prompt and gets one
// *oauthclient.Error; a server that refuses every fresh token gets
// MaxAuthorizations of them in all, in every era.
func TestOAuthRefusalIsFinal(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	s := newServer()
	t.Cleanup(func() { closeNow(s) })
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	md, err := auth.MetadataHandler(&auth.ProtectedResourceMetadata{Resource: ts.URL, AuthorizationServers: []string{as.URL()}})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/.well-known/oauth-protected-resource", md)
	bearer := &auth.BearerOptions{ResourceMetadataURL: ts.URL + "/.well-known/oauth-protected-resource"}
	mux.Handle("/", auth.RequireBearerToken(auth.JWT(as.URL(), ts.URL), bearer)(s))
	refuseAll := auth.VerifierFunc(func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return nil, auth.ErrInvalidToken
	})
	mux.Handle("/refusing/", auth.RequireBearerToken(refuseAll, bearer)(s))

	for _, era := range []struct {
		name string
		opt  client.Option
	}{{"auto", client.WithLogger(quietLogger)}, {"legacy", legacy}, {"modern", eras[1].opt}} {
		t.Run(era.name+"/denied", func(t *testing.T) {
			as.SetDeny(true)
			defer as.SetDeny(false)
			var prompts atomic.Int32
			open := func(ctx context.Context, u string) error { prompts.Add(1); return follow(ctx, u) }
			_, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", era.opt, client.WithLogger(quietLogger),
				client.OAuth(oauthclient.Config{OpenURL: open, Logger: quietLogger}))
			if n := prompts.Load(); n != 1 {
				t.Errorf("%d authorization prompts, want 1", n)
			}
			oe, ok := errors.AsType[*oauthclient.Error](err)
			if !ok || oe.Code != "access_denied" || !errors.Is(err, oauthclient.ErrAuthorizationDenied) {
				t.Fatalf("error %v; want an *oauthclient.Error with access_denied", err)
			}
			if errors.Is(err, transport.ErrTransport) || !strings.Contains(err.Error(), "not authorized") {
				t.Errorf("error %q; want it said as an authorization failure, not a transport one", err)
			}
		})
		t.Run(era.name+"/refusing", func(t *testing.T) {
			var prompts atomic.Int32
			open := func(ctx context.Context, u string) error { prompts.Add(1); return follow(ctx, u) }
			_, err := client.ConnectHTTP(ctxT(t), ts.URL+"/refusing/mcp", era.opt, client.WithLogger(quietLogger),
				client.OAuth(oauthclient.Config{OpenURL: open, Logger: quietLogger, MaxAuthorizations: 2}))
			if n := prompts.Load(); n != 2 {
				t.Errorf("%d authorization prompts, want 2 (MaxAuthorizations)", n)
			}
			if !errors.Is(err, oauthclient.ErrRetryLimit) {
				t.Fatalf("error %v; want one matching oauthclient.ErrRetryLimit", err)
			}
		})
	}
}
