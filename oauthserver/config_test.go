package oauthserver

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestConfigErrors: New refuses a configuration that cannot work with an
// error matching ErrConfig that names the field to fix.
func TestConfigErrors(t *testing.T) {
	ok := Config{Issuer: "https://auth.example.com", Resources: []string{"https://mcp.example.com/mcp"}, Login: DemoLogin()}
	cases := []struct {
		field  string
		change func(c *Config)
	}{
		{"Issuer", func(c *Config) { c.Issuer = "" }},
		{"Issuer", func(c *Config) { c.Issuer = "http://auth.example.com" }},
		{"Issuer", func(c *Config) { c.Issuer = "https://auth.example.com/?x=1" }},
		{"Resources", func(c *Config) { c.Resources = nil }},
		{"Resources", func(c *Config) { c.Resources = []string{"mcp"} }},
		{"Login", func(c *Config) { c.Login = nil }},
		{"KeyRotation", func(c *Config) { c.KeyRotation = time.Minute }},
		{"Clients[0]", func(c *Config) { c.Clients = []Client{{ID: "a"}} }},
		{"Clients[1]", func(c *Config) {
			c.Clients = []Client{{ID: "a", RedirectURIs: []string{"https://a.example/cb"}}, {ID: "a", RedirectURIs: []string{"https://a.example/cb"}}}
		}},
		{"Clients[0]", func(c *Config) {
			c.Clients = []Client{{ID: "a", Secret: "short", RedirectURIs: []string{"https://a.example/cb"}}}
		}},
	}
	for _, tc := range cases {
		c := ok
		tc.change(&c)
		_, err := New(c)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.field+":") {
			t.Errorf("%s: New = %v, want ErrConfig naming %s", tc.field, err, tc.field)
		}
	}
	if _, err := New(ok); err != nil {
		t.Errorf("a valid Config: %v", err)
	}
}

// TestLoginRefused: a Login's error ends the request with access_denied
// (its text is not sent to the client).
func TestLoginRefused(t *testing.T) {
	login := LoginFunc(func(http.ResponseWriter, *http.Request, *Request) (*User, error) {
		return nil, errors.New("account locked: secret detail")
	})
	as := startAS(t, Config{Clients: testClients, Login: login})
	q := as.authorize(t, newBrowser("alice"), as.authURL(publicID, newPKCE(), nil))
	if q.Get("error") != "access_denied" || strings.Contains(q.Get("error_description"), "secret") || q.Get("iss") != as.URL {
		t.Errorf("callback %v, want access_denied without the Login's error", q)
	}
}

// TestScopes: with Config.Scopes, a scope outside it is refused with
// invalid_scope, and the metadata lists them.
func TestScopes(t *testing.T) {
	as := startAS(t, Config{Clients: testClients, Scopes: []string{"mcp"}})
	as.wantRedirectError(t, as.authURL(publicID, newPKCE(), url.Values{"scope": {"mcp admin"}}), "invalid_scope")
	if got := as.Metadata()["scopes_supported"]; len(got.([]string)) != 1 {
		t.Errorf("scopes_supported = %v", got)
	}
}
