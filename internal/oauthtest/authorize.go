package oauthtest

import (
	"net/http"
	"net/url"
	"slices"
	"time"
)

// codeLifetime is how long an authorization code may be redeemed.
const codeLifetime = time.Minute

// serveAuthorize is the authorization endpoint. It approves every valid
// request at once, as the user Options.Subject (or login_hint), and
// redirects back with the code. Errors about the client or its redirect
// URI are answered here (400), as RFC 6749 §4.1.2.1 asks; the others are
// sent to the redirect URI.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.record(Request{Endpoint: "authorize", Params: q})
	c := s.client(q.Get("client_id"))
	if c == nil {
		http.Error(w, "oauthtest: unknown client_id "+q.Get("client_id"), http.StatusBadRequest)
		return
	}
	redirectURI := q.Get("redirect_uri")
	back, ok := redirectTarget(w, c, redirectURI)
	if !ok {
		return
	}
	answer := back.Query()
	if st := q.Get("state"); st != "" {
		answer.Set("state", st)
	}
	answer.Set("iss", s.URL())
	requested, errCode, description := s.checkAuthorize(q, c)
	if errCode != "" {
		answer.Set("error", errCode)
		answer.Set("error_description", description)
	} else {
		subject := q.Get("login_hint")
		if subject == "" {
			subject = s.opts.Subject
		}
		code := randomString(24)
		s.codes.put(code, &grant{
			clientID:    c.ID,
			subject:     subject,
			scopes:      s.granted(requested),
			resources:   q["resource"],
			redirectURI: redirectURI,
			challenge:   q.Get("code_challenge"),
		}, time.Now().Add(codeLifetime))
		s.authorized.Add(1)
		answer.Set("code", code)
	}
	back.RawQuery = answer.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// redirectTarget is where an authorization request of client c that named
// redirectURI (or none) is answered. When the URI is missing, unregistered
// or malformed it answers 400 itself and returns false.
func redirectTarget(w http.ResponseWriter, c *Client, redirectURI string) (*url.URL, bool) {
	target := redirectURI
	switch {
	case redirectURI == "" && len(c.RedirectURIs) == 1:
		target = c.RedirectURIs[0]
	case redirectURI == "":
		http.Error(w, "oauthtest: redirect_uri is required: the client registered several", http.StatusBadRequest)
		return nil, false
	case !c.allowsRedirect(redirectURI):
		http.Error(w, "oauthtest: redirect_uri "+redirectURI+" is not registered for the client", http.StatusBadRequest)
		return nil, false
	}
	back, err := url.Parse(target)
	if err != nil {
		http.Error(w, "oauthtest: bad redirect_uri", http.StatusBadRequest)
		return nil, false
	}
	return back, true
}

// checkAuthorize checks the authorization request q of client c (response
// type, grant, PKCE, scope, resources, and whether the user declines). It
// returns the scopes requested, or the OAuth error code and description to
// send back to the redirect URI.
func (s *Server) checkAuthorize(q url.Values, c *Client) (requested []string, errCode, description string) {
	if q.Get("response_type") != "code" {
		return nil, "unsupported_response_type", "only response_type=code is supported"
	}
	if !slices.Contains(c.GrantTypes, "authorization_code") {
		return nil, "unauthorized_client", "the client did not register the authorization_code grant"
	}
	if q.Get("code_challenge") == "" {
		return nil, "invalid_request", "code_challenge is required (PKCE)"
	}
	if q.Get("code_challenge_method") != "S256" {
		return nil, "invalid_request", "code_challenge_method must be S256"
	}
	requested = splitScopes(q.Get("scope"))
	if len(requested) == 0 {
		requested = s.opts.DefaultScopes
	}
	if s.opts.ScopesSupported != nil && !subset(requested, s.opts.ScopesSupported) {
		return nil, "invalid_scope", "unknown scope requested; supported: " + joinScopes(s.opts.ScopesSupported)
	}
	if !validResources(q["resource"]) {
		return nil, "invalid_target", "each resource must be an absolute URI without a fragment (RFC 8707)"
	}
	if s.deny.Load() {
		return nil, "access_denied", "the user declined"
	}
	return requested, "", ""
}

// granted returns the scopes of requested the user grants.
func (s *Server) granted(requested []string) []string {
	if s.opts.UserScopes == nil {
		return slices.Clone(requested)
	}
	var out []string
	for _, sc := range requested {
		if slices.Contains(s.opts.UserScopes, sc) {
			out = append(out, sc)
		}
	}
	return out
}

func validResources(resources []string) bool {
	for _, res := range resources {
		u, err := url.Parse(res)
		if err != nil || !u.IsAbs() || u.Fragment != "" {
			return false
		}
	}
	return true
}

// allowsRedirect reports whether uri is one of the client's redirect
// URIs. A loopback IP one (http://127.0.0.1 or http://[::1]) matches with
// any port, as RFC 8252 §7.3 requires for native apps, which listen on a
// port the system picks.
func (c *Client) allowsRedirect(uri string) bool {
	if slices.Contains(c.RedirectURIs, uri) {
		return true
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "http" || (u.Hostname() != "127.0.0.1" && u.Hostname() != "::1") {
		return false
	}
	for _, r := range c.RedirectURIs {
		ru, err := url.Parse(r)
		if err == nil && ru.Scheme == "http" && ru.Hostname() == u.Hostname() && ru.Path == u.Path && ru.RawQuery == u.RawQuery {
			return true
		}
	}
	return false
}
