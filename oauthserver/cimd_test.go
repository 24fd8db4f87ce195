package oauthserver

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/oauthserver/oauthtest"
)

// docServer serves client ID metadata documents over TLS on 127.0.0.1,
// one per path, and counts the fetches.
type docServer struct {
	*httptest.Server
	fetches atomic.Int32
}

func startDocServer(t *testing.T, handler func(w http.ResponseWriter, r *http.Request, self string)) *docServer {
	t.Helper()
	d := &docServer{}
	d.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.fetches.Add(1)
		handler(w, r, d.URL+r.URL.Path)
	}))
	t.Cleanup(d.Close)
	return d
}

// document is a client ID metadata document for id.
func document(id string, extra string) string {
	return fmt.Sprintf(`{"client_id":%q,"client_name":"Doc Client","redirect_uris":[%q],"token_endpoint_auth_method":"none"%s}`, id, callbackURI, extra)
}

// TestClientIDMetadataDocument: a client whose client_id is the URL of
// its metadata document logs in without registering; the server fetches
// the document once and keeps it.
func TestClientIDMetadataDocument(t *testing.T) {
	docs := startDocServer(t, func(w http.ResponseWriter, r *http.Request, self string) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "max-age=600")
		fmt.Fprint(w, document(self, ""))
	})
	as := startAS(t, Config{HTTPClient: docs.Client()})
	id := docs.URL + "/client.json"

	// The consent page names the document's client and its client_id.
	b := newBrowser("alice")
	resp, login := get(t, b.Client, as.authURL(id, newPKCE(), nil))
	form, ok := oauthtest.ParseForm(login, resp.Request.URL)
	if !ok {
		t.Fatalf("no login form: %s", login)
	}
	form.Fields.Set("username", "alice")
	_, consent := postForm(t, b.Client, form.Action, form.Fields)
	if !strings.Contains(consent, "Doc Client") || !strings.Contains(consent, html.EscapeString(id)) {
		t.Errorf("the consent page does not name the document's client name and client_id:\n%s", consent)
	}

	p := newPKCE()
	code := as.code(t, id, p)
	tok := as.redeem(t, id, code, p)
	if tok.AccessToken == "" {
		t.Fatalf("no access token: %+v", tok)
	}
	as.code(t, id, newPKCE())
	if n := docs.fetches.Load(); n != 1 {
		t.Errorf("%d fetches of the document, want 1 (kept for its max-age)", n)
	}
}

// TestClientIDMetadataDocumentRefused: a document that does not hold up
// ends the authorization on an error page, never at a redirect URI.
func TestClientIDMetadataDocumentRefused(t *testing.T) {
	cases := []struct {
		name    string
		path    string
		handler func(w http.ResponseWriter, r *http.Request, self string)
	}{
		{"another client_id", "/a.json", func(w http.ResponseWriter, r *http.Request, self string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, document(self+"x", ""))
		}},
		{"too big", "/big.json", func(w http.ResponseWriter, r *http.Request, self string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, document(self, `,"client_uri":"https://e.example/`+strings.Repeat("a", cimdMaxBytes)+`"`))
		}},
		{"a redirect", "/moved.json", func(w http.ResponseWriter, r *http.Request, self string) {
			http.Redirect(w, r, "/elsewhere.json", http.StatusFound)
		}},
		{"not JSON", "/page.json", func(w http.ResponseWriter, r *http.Request, self string) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, document(self, ""))
		}},
		{"a secret-based client", "/secret.json", func(w http.ResponseWriter, r *http.Request, self string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, strings.Replace(document(self, ""), `"none"`, `"client_secret_basic"`, 1))
		}},
		{"a javascript: redirect URI", "/js.json", func(w http.ResponseWriter, r *http.Request, self string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, strings.Replace(document(self, ""), callbackURI, "javascript:alert(1)", 1))
		}},
		{"404", "/gone.json", func(w http.ResponseWriter, r *http.Request, self string) {
			http.NotFound(w, r)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			docs := startDocServer(t, c.handler)
			as := startAS(t, Config{HTTPClient: docs.Client()})
			resp, _ := get(t, noRedirectClient(), as.authURL(docs.URL+c.path, newPKCE(), nil))
			wantPage(t, resp, http.StatusBadRequest)
		})
	}
}

// TestClientIDMetadataDocumentRedirectURI: a redirect URI the document
// does not list is shown as an error, not followed.
func TestClientIDMetadataDocumentRedirectURI(t *testing.T) {
	docs := startDocServer(t, func(w http.ResponseWriter, r *http.Request, self string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, document(self, ""))
	})
	as := startAS(t, Config{HTTPClient: docs.Client()})
	u := as.authURL(docs.URL+"/c.json", newPKCE(), url.Values{"redirect_uri": {"https://evil.example/cb"}})
	resp, _ := get(t, noRedirectClient(), u)
	wantPage(t, resp, http.StatusBadRequest)
}

// TestClientIDMetadataDocumentSSRF: with the default HTTP client a
// client_id on a loopback address is never fetched.
func TestClientIDMetadataDocumentSSRF(t *testing.T) {
	docs := startDocServer(t, func(w http.ResponseWriter, r *http.Request, self string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, document(self, ""))
	})
	as := startAS(t, Config{})
	resp, _ := get(t, noRedirectClient(), as.authURL(docs.URL+"/client.json", newPKCE(), nil))
	wantPage(t, resp, http.StatusBadRequest)
	if n := docs.fetches.Load(); n != 0 {
		t.Errorf("the document on 127.0.0.1 was fetched %d times", n)
	}
	_, _, err := newCIMDCache(nil, time.Now).fetch(context.Background(), docs.URL+"/client.json")
	if !errors.Is(err, ErrBlockedAddress) {
		t.Errorf("fetch: %v, want ErrBlockedAddress", err)
	}
}

// TestClientIDMetadataDocumentOff: NoClientIDMetadata refuses URL client
// IDs and says so in the metadata.
func TestClientIDMetadataDocumentOff(t *testing.T) {
	docs := startDocServer(t, func(w http.ResponseWriter, r *http.Request, self string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, document(self, ""))
	})
	as := startAS(t, Config{HTTPClient: docs.Client(), NoClientIDMetadata: true})
	resp, _ := get(t, noRedirectClient(), as.authURL(docs.URL+"/client.json", newPKCE(), nil))
	wantPage(t, resp, http.StatusBadRequest)
	if n := docs.fetches.Load(); n != 0 {
		t.Errorf("fetched %d times with NoClientIDMetadata", n)
	}
}

func TestIsClientIDURL(t *testing.T) {
	for id, want := range map[string]bool{
		"https://app.example/client.json":     true,
		"https://app.example/a/b":             true,
		"https://app.example":                 false,
		"https://app.example/":                false,
		"http://app.example/client.json":      false,
		"https://app.example/c.json?x=1":      false,
		"https://app.example/c.json#f":        false,
		"https://u:p@app.example/c.json":      false,
		"https://app.example/a/../c.json":     false,
		"https://app.example/a/%2E%2E/c.json": false,
		"my-client":                           false,
	} {
		if got := isClientIDURL(id); got != want {
			t.Errorf("isClientIDURL(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestPublicAddr(t *testing.T) {
	for addr, want := range map[string]bool{
		"8.8.8.8": true, "2606:4700::1111": true,
		"127.0.0.1": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false,
		"169.254.169.254": false, "fe80::1": false, "fc00::1": false, "100.64.0.1": false,
		"0.0.0.0": false, "::": false, "224.0.0.1": false, "::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false,
	} {
		if got := publicAddr(netip.MustParseAddr(addr)); got != want {
			t.Errorf("publicAddr(%s) = %v, want %v", addr, got, want)
		}
	}
}

func TestMaxAge(t *testing.T) {
	for cc, want := range map[string]time.Duration{
		"":                   cimdDefaultAge,
		"max-age=60":         time.Minute,
		"public, max-age=30": 30 * time.Second,
		"max-age=999999":     cimdMaxAge,
		"no-store":           0,
		"max-age=bad":        cimdDefaultAge,
	} {
		if got := maxAge(cc); got != want {
			t.Errorf("maxAge(%q) = %v, want %v", cc, got, want)
		}
	}
}

// noRedirectClient follows no redirect.
func noRedirectClient() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}
