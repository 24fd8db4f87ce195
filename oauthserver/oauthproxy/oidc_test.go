package oauthproxy_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/fastmcp-go/fastmcp/internal/oidcpeer"
	"github.com/fastmcp-go/fastmcp/oauthserver/oauthproxy"
	"github.com/fastmcp-go/fastmcp/oauthserver/oauthtest"
)

// TestOIDCUpstream: the proxy in front of an OpenID provider no one here
// wrote (panva's oidc-provider, npm), configured without dynamic
// registration and with the proxy's one client: OIDC discovers it, our
// client logs in through it (its login and consent answered headless),
// the ID token is verified, and the tool gets the provider's token.
func TestOIDCUpstream(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	origin := "http://" + ln.Addr().String()
	op := oidcpeer.Start(t, "--resource", "http://127.0.0.1:9/upstream-api", "--no-registration", "--subject", "ada",
		"--client", "proxy-client=proxy-secret-0123456789="+origin+oauthproxy.DefaultCallbackPath)
	resp, err := http.Post(op.Issuer+"/reg", "application/json", strings.NewReader(`{"redirect_uris":["http://127.0.0.1:1/cb"]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 400 {
		t.Fatalf("the upstream accepted a dynamic registration (%d): it must not offer one here", resp.StatusCode)
	}
	up, err := oauthproxy.OIDC(t.Context(), op.Issuer, "proxy-client", "proxy-secret-0123456789", nil)
	if err != nil {
		t.Fatal(err)
	}
	p := startProxiedOn(t, ln, up, func(ctx context.Context, tok *oauth2.Token) (string, error) {
		return "upstream token " + map[bool]string{true: "present", false: "missing"}[tok.AccessToken != ""], nil
	})
	cl, err := p.connect(t, oauthtest.New("ignored"))
	if err != nil {
		t.Fatalf("logging in through the proxy: %v", err)
	}
	defer cl.Close()
	res, err := cl.CallTool(t.Context(), "upstream_user", nil)
	if err != nil || res.IsError || contentText(res) != op.Issuer+"|ada upstream token present" {
		t.Fatalf("upstream_user: %v, %v", contentText(res), err)
	}
}
