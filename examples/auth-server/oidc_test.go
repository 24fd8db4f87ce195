package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/oidcpeer"
	"github.com/fastmcp-go/fastmcp/oauthclient"
)

// headlessBrowser plays the user's browser for OAuthConfig.OpenURL: it
// follows the authorization page's redirects (keeping cookies, as a
// browser does) through the provider's interaction page, adding
// answer=deny there when deny is set, back to the client's loopback
// redirect URI. It counts the prompts.
type headlessBrowser struct {
	jar     http.CookieJar
	deny    bool
	prompts atomic.Int32
}

func newHeadlessBrowser(t *testing.T, deny bool) *headlessBrowser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &headlessBrowser{jar: jar, deny: deny}
}

func (b *headlessBrowser) open(ctx context.Context, authURL string) error {
	b.prompts.Add(1)
	c := &http.Client{
		Jar:       b.jar,
		Transport: &http.Transport{DisableKeepAlives: true},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > 20 {
				return errors.New("too many redirects")
			}
			if b.deny && strings.HasPrefix(req.URL.Path, "/interaction/") {
				q := req.URL.Query()
				q.Set("answer", "deny")
				req.URL.RawQuery = q.Encode()
			}
			return nil
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// TestOIDCProvider runs the example against a real, certified OpenID
// provider (oidc-provider, npm) with a fastmcp client through the whole
// flow, unchanged (issue 29): the client registers, asks for the scope
// the server's 401 names and gets a JWT for the resource (item 11), with
// a refresh token, since it asks for offline_access with prompt=consent
// (item 10), which a later client uses instead of a new login; the admin
// tool takes a step-up for its scope (item 11); and a user who declines
// sees one prompt and gets one clear error (item 9).
func TestOIDCProvider(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	audience := "http://" + ln.Addr().String() + "/mcp"
	op := oidcpeer.Start(t, "--resource", audience)
	c, err := parseFlags([]string{"-addr", ln.Addr().String(), "-issuer", op.Issuer}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	sctx, stop := context.WithCancel(ctx)
	go func() { served <- newServer(c, fastmcp.Listener(ln)).Run(sctx) }()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	quiet := slog.New(slog.DiscardHandler)
	connectAs := func(b *headlessBrowser, store oauthclient.TokenStore, noConsent bool) (*client.Client, error) {
		return client.ConnectHTTP(ctx, audience, client.WithLogger(quiet), client.OAuth(oauthclient.Config{
			ClientName: "fastmcp oidc test", Store: store, OpenURL: b.open, Logger: quiet, NoConsentPrompt: noConsent,
		}))
	}
	whoami := func(cl *client.Client) Identity {
		t.Helper()
		res, err := cl.CallTool(ctx, "whoami", nil)
		if err != nil {
			t.Fatal(err)
		}
		var id Identity
		if err := json.Unmarshal(res.StructuredContent, &id); err != nil {
			t.Fatalf("whoami = %s: %v", res.StructuredContent, err)
		}
		return id
	}

	t.Run("login, refresh token, step-up", func(t *testing.T) {
		b := newHeadlessBrowser(t, false)
		store := oauthclient.NewMemoryStore()
		cl, err := connectAs(b, store, false)
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		if id := whoami(cl); id.Subject != "oidc-user" || !slices.Contains(id.Scopes, "mcp") {
			t.Errorf("whoami = %+v, want subject oidc-user with scope mcp", id)
		}
		rec, err := store.Load(ctx, audience)
		if err != nil || rec == nil || rec.Token == nil {
			t.Fatalf("stored record %+v, %v", rec, err)
		}
		if rec.Token.RefreshToken == "" {
			t.Error("no refresh token: the provider dropped offline_access")
		}
		res, err := cl.CallTool(ctx, "admin", nil)
		if err != nil || res.IsError || res.Text() != "admin access granted to oidc-user" {
			t.Fatalf("admin = %v, %v", res, err)
		}
		if n := b.prompts.Load(); n != 2 {
			t.Errorf("%d prompts, want 2 (the login, the step-up for admin)", n)
		}

		// A restarted client whose access token expired refreshes it.
		rec, _ = store.Load(ctx, audience)
		rec.Token.Expiry = time.Now().Add(-time.Minute)
		if err := store.Save(ctx, audience, rec); err != nil {
			t.Fatal(err)
		}
		again, err := connectAs(b, store, false)
		if err != nil {
			t.Fatal(err)
		}
		defer again.Close()
		if id := whoami(again); !slices.Contains(id.Scopes, "admin") {
			t.Errorf("after the refresh, whoami = %+v, want the admin scope kept", id)
		}
		if n := b.prompts.Load(); n != 2 {
			t.Errorf("%d prompts after the refresh, want still 2", n)
		}
	})

	t.Run("without prompt=consent, no refresh token", func(t *testing.T) {
		// What NoConsentPrompt costs with this provider (and what every
		// client got before issue 29).
		store := oauthclient.NewMemoryStore()
		cl, err := connectAs(newHeadlessBrowser(t, false), store, true)
		if err != nil {
			t.Fatal(err)
		}
		cl.Close()
		rec, err := store.Load(ctx, audience)
		if err != nil || rec == nil || rec.Token == nil {
			t.Fatalf("stored record %+v, %v", rec, err)
		}
		if rec.Token.RefreshToken != "" {
			t.Error("a refresh token without prompt=consent: the provider's policy changed; revisit NoConsentPrompt's doc")
		}
	})

	t.Run("denied", func(t *testing.T) {
		b := newHeadlessBrowser(t, true)
		cl, err := connectAs(b, oauthclient.NewMemoryStore(), false)
		if err == nil {
			cl.Close()
			t.Fatal("connected, though the user declined")
		}
		if n := b.prompts.Load(); n != 1 {
			t.Errorf("%d prompts, want 1", n)
		}
		oe, ok := errors.AsType[*oauthclient.Error](err)
		if !ok || oe.Code != "access_denied" || !errors.Is(err, oauthclient.ErrAuthorizationDenied) {
			t.Errorf("error %v; want an *oauthclient.Error with access_denied", err)
		}
	})
}
