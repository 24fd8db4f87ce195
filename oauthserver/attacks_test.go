package oauthserver

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/oauthserver/oauthtest"
)

// consentForm signs in as alice in b and returns the consent page's form
// (Allow pressed), without answering it.
func (as *testAS) consentForm(t *testing.T, b *oauthtest.Browser, authURL string) *oauthtest.Form {
	t.Helper()
	resp, body := get(t, b.Client, authURL)
	login, ok := oauthtest.ParseForm(body, resp.Request.URL)
	if !ok {
		t.Fatalf("no login form: %d %s", resp.StatusCode, body)
	}
	login.Fields.Set("username", "alice")
	resp, body = postForm(t, b.Client, login.Action, login.Fields)
	form, ok := oauthtest.ParseForm(body, resp.Request.URL)
	if !ok || form.Fields.Get("csrf") == "" {
		t.Fatalf("no consent form: %d %s", resp.StatusCode, body)
	}
	form.Fields.Set("decision", "allow")
	return form
}

func get(t *testing.T, c *http.Client, u string) (*http.Response, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func postForm(t *testing.T, c *http.Client, u string, form url.Values) (*http.Response, string) {
	t.Helper()
	resp, err := c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// wantPage checks that resp is an error page, not a redirect.
func wantPage(t *testing.T, resp *http.Response, status int) {
	t.Helper()
	if resp.StatusCode != status || resp.Header.Get("Location") != "" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("got %d, Location %q, Content-Type %q; want an error page %d", resp.StatusCode, resp.Header.Get("Location"), resp.Header.Get("Content-Type"), status)
	}
}

// wantRedirectError checks that the authorization ended at the client's
// redirect URI with error code, the state and iss.
func (as *testAS) wantRedirectError(t *testing.T, u, code string) {
	t.Helper()
	resp, body, err := newBrowser("alice").Open(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if loc == nil || !strings.HasPrefix(loc.String(), callbackURI) {
		t.Fatalf("got %d %q %s, want a redirect to the client", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	if q := loc.Query(); q.Get("error") != code || q.Get("state") != "state-1234567" || q.Get("iss") != as.URL {
		t.Errorf("redirect query %v, want error=%s with state and iss", q, code)
	}
}

// TestAttacks: each attack of issue 32's list is refused, over real HTTP.
func TestAttacks(t *testing.T) {
	const otherResource = "http://127.0.0.1:9/other"
	as := startAS(t, Config{Clients: testClients, Resources: []string{testResource, otherResource}})
	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res := url.Values{"resource": {testResource}}
	cases := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"redirect URI not registered: an error page, not a redirect", func(t *testing.T) {
			u := as.authURL(publicID, newPKCE(), url.Values{"redirect_uri": {"https://evil.example/cb"}})
			resp, body := get(t, noRedirects, u)
			wantPage(t, resp, http.StatusBadRequest)
			if strings.Contains(body, "evil.example") {
				t.Error("the error page shows the attacker's URL")
			}
		}},
		{"unknown client with a redirect URI: an error page (no open redirect)", func(t *testing.T) {
			u := as.authURL("nobody", newPKCE(), url.Values{"redirect_uri": {"https://evil.example/cb"}})
			resp, _ := get(t, noRedirects, u)
			wantPage(t, resp, http.StatusBadRequest)
		}},
		{"code reuse: refused, and the first redemption's tokens revoked", func(t *testing.T) {
			p := newPKCE()
			code := as.code(t, publicID, p)
			first := as.redeem(t, publicID, code, p)
			if first.Status != http.StatusOK {
				t.Fatalf("first redemption: %+v", first)
			}
			if second := as.redeem(t, publicID, code, p); second.Error != "invalid_grant" {
				t.Errorf("second redemption: %+v, want invalid_grant", second)
			}
			if r := as.refresh(t, publicID, first.RefreshToken); r.Error != "invalid_grant" {
				t.Errorf("the first refresh token after reuse: %+v, want invalid_grant", r)
			}
			if as.active(t, first.AccessToken) {
				t.Error("the first access token is still active after reuse")
			}
		}},
		{"PKCE missing", func(t *testing.T) {
			as.wantRedirectError(t, as.authURL(publicID, pkcePair{}, url.Values{"code_challenge_method": {""}}), "invalid_request")
		}},
		{"PKCE plain", func(t *testing.T) {
			p := newPKCE()
			as.wantRedirectError(t, as.authURL(publicID, pkcePair{p.verifier, p.verifier}, url.Values{"code_challenge_method": {"plain"}}), "invalid_request")
		}},
		{"PKCE wrong verifier", func(t *testing.T) {
			p := newPKCE()
			code := as.code(t, publicID, p)
			if r := as.redeem(t, publicID, code, newPKCE()); r.Error != "invalid_grant" {
				t.Errorf("wrong verifier: %+v, want invalid_grant", r)
			}
		}},
		{"PKCE verifier left out", func(t *testing.T) {
			p := newPKCE()
			code := as.code(t, publicID, p)
			if r := as.redeem(t, publicID, code, pkcePair{}); r.Status == http.StatusOK {
				t.Errorf("no verifier: %+v, want an error", r)
			}
		}},
		{"a code of client A redeemed by client B", func(t *testing.T) {
			p := newPKCE()
			code := as.code(t, publicID, p)
			if r := as.redeem(t, otherID, code, p); r.Error != "invalid_grant" {
				t.Errorf("redeemed by another client: %+v, want invalid_grant", r)
			}
		}},
		{"refresh token reuse after rotation: refused, family revoked", func(t *testing.T) {
			p := newPKCE()
			first := as.redeem(t, publicID, as.code(t, publicID, p), p)
			rotated := as.refresh(t, publicID, first.RefreshToken)
			if rotated.Status != http.StatusOK {
				t.Fatalf("rotation: %+v", rotated)
			}
			if r := as.refresh(t, publicID, first.RefreshToken); r.Error != "invalid_grant" {
				t.Errorf("reuse: %+v, want invalid_grant", r)
			}
			if r := as.refresh(t, publicID, rotated.RefreshToken); r.Error != "invalid_grant" {
				t.Errorf("the rotated token after reuse: %+v, want invalid_grant (family revoked)", r)
			}
			if as.active(t, rotated.AccessToken) {
				t.Error("the rotated access token is active after reuse")
			}
		}},
		{"authorization for a resource not served: invalid_target", func(t *testing.T) {
			as.wantRedirectError(t, as.authURL(publicID, newPKCE(), url.Values{"resource": {"https://elsewhere.example/mcp"}}), "invalid_target")
		}},
		{"a code for resource A redeemed for resource B: invalid_target", func(t *testing.T) {
			p := newPKCE()
			q := as.authorize(t, newBrowser("alice"), as.authURL(publicID, p, res))
			r := as.token(t, url.Values{
				"grant_type": {"authorization_code"}, "client_id": {publicID}, "code": {q.Get("code")},
				"redirect_uri": {callbackURI}, "code_verifier": {p.verifier}, "resource": {otherResource},
			})
			if r.Error != "invalid_target" {
				t.Errorf("redeemed for another resource: %+v, want invalid_target", r)
			}
		}},
		{"consent skipped: signing in issues no code", func(t *testing.T) {
			b := newBrowser("alice")
			b.Client.CheckRedirect = noRedirects.CheckRedirect
			as.consentForm(t, b, as.authURL(publicID, newPKCE(), res)) // signed in: the consent page, no redirect
			form := as.consentForm(t, b, as.authURL(publicID, newPKCE(), res))
			resp, _ := get(t, b.Client, as.URL+"/authorize/resume?request="+url.QueryEscape(form.Fields.Get("request")))
			if loc := resp.Header.Get("Location"); loc != "" {
				t.Errorf("the resume page redirected to %q without consent", loc)
			}
		}},
		{"consent with a forged CSRF token", func(t *testing.T) {
			b := newBrowser("alice")
			form := as.consentForm(t, b, as.authURL(publicID, newPKCE(), res))
			form.Fields.Set("csrf", "forged-"+form.Fields.Get("csrf"))
			resp, _ := postForm(t, b.Client, form.Action, form.Fields)
			wantPage(t, resp, http.StatusForbidden)
		}},
		{"consent without a CSRF token", func(t *testing.T) {
			b := newBrowser("alice")
			form := as.consentForm(t, b, as.authURL(publicID, newPKCE(), res))
			form.Fields.Del("csrf")
			resp, _ := postForm(t, b.Client, form.Action, form.Fields)
			wantPage(t, resp, http.StatusForbidden)
		}},
		{"consent posted from another browser (cross-site: no cookie)", func(t *testing.T) {
			form := as.consentForm(t, newBrowser("alice"), as.authURL(publicID, newPKCE(), res))
			resp, _ := postForm(t, noRedirects, form.Action, form.Fields)
			wantPage(t, resp, http.StatusForbidden)
		}},
		{"consent answered twice: one code", func(t *testing.T) {
			b := newBrowser("alice")
			form := as.consentForm(t, b, as.authURL(publicID, newPKCE(), res))
			resp, _ := postForm(t, b.Client, form.Action, form.Fields)
			if !strings.Contains(resp.Header.Get("Location"), "code=") {
				t.Fatalf("first answer: %d %q", resp.StatusCode, resp.Header.Get("Location"))
			}
			resp, _ = postForm(t, b.Client, form.Action, form.Fields)
			wantPage(t, resp, http.StatusBadRequest)
		}},
		{"consent denied: access_denied with state and iss", func(t *testing.T) {
			b := newBrowser("alice")
			b.Deny = true
			q := as.authorize(t, b, as.authURL(publicID, newPKCE(), res))
			if q.Get("error") != "access_denied" || q.Get("code") != "" || q.Get("iss") != as.URL {
				t.Errorf("denied: %v", q)
			}
		}},
		{"consent page escapes the client's name", func(t *testing.T) {
			status, body := registerClient(t, as, `{"redirect_uris":["`+callbackURI+`"],"client_name":"<script>alert(1)</script>","token_endpoint_auth_method":"none"}`)
			if status != http.StatusCreated {
				t.Fatalf("registration: %d %s", status, body)
			}
			b := newBrowser("alice")
			resp, page := get(t, b.Client, as.authURL(body["client_id"].(string), newPKCE(), res))
			if strings.Contains(page, "<script>") || resp.StatusCode != http.StatusOK {
				t.Errorf("the login page: %d, with the name unescaped: %v", resp.StatusCode, strings.Contains(page, "<script>"))
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}
