package oauthserver

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// TestIssuerPath: an issuer with a path serves its endpoints under it and
// its metadata at the RFC 8414 §3 path (and under the issuer's path);
// the flow works there.
func TestIssuerPath(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	root := "http://" + ln.Addr().String()
	as := startASOn(t, ln, Config{Issuer: root + "/tenant/a", Clients: testClients})
	for _, p := range []string{"/.well-known/oauth-authorization-server/tenant/a", "/tenant/a/.well-known/oauth-authorization-server"} {
		resp, err := http.Get(root + p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		err = json.NewDecoder(resp.Body).Decode(&m)
		resp.Body.Close()
		if err != nil || m["issuer"] != root+"/tenant/a" || m["token_endpoint"] != root+"/tenant/a/token" {
			t.Errorf("%s: %v %v", p, m, err)
		}
	}
	as.URL = root + "/tenant/a"
	p := newPKCE()
	if tr := as.redeem(t, publicID, as.code(t, publicID, p), p); tr.Status != http.StatusOK {
		t.Errorf("the flow under a path: %+v", tr)
	}
}

// TestTrustedClient: a trusted client gets its code right after the
// login, without the consent page.
func TestTrustedClient(t *testing.T) {
	as := startAS(t, Config{Clients: []Client{{ID: "first-party", RedirectURIs: []string{callbackURI}, Trusted: true}}})
	b := newBrowser("alice")
	q := as.authorize(t, b, as.authURL("first-party", newPKCE(), nil))
	if q.Get("code") == "" || q.Get("iss") != as.URL {
		t.Errorf("trusted client: %v", q)
	}
}

// startASOn is startAS on a listener of the caller's.
func startASOn(t *testing.T, ln net.Listener, cfg Config) *testAS {
	t.Helper()
	s, err := New(withTestDefaults(cfg))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(s)
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	t.Cleanup(hs.Close)
	u, _ := url.Parse(cfg.Issuer)
	return &testAS{Server: s, URL: u.Scheme + "://" + u.Host}
}
