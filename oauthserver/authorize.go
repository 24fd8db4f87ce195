package oauthserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
)

// pending is an authorization request waiting for its user and consent,
// kept in the store under keyPending + ID.
type pending struct {
	ID          string    `json:"id"`
	Query       string    `json:"query"` // the authorization request, as fosite parses it again
	ClientID    string    `json:"client_id"`
	RedirectURI string    `json:"redirect_uri"`
	State       string    `json:"state,omitempty"`
	Scopes      []string  `json:"scopes,omitempty"`
	Resource    string    `json:"resource"`
	Browser     string    `json:"browser"` // SHA-256 of the browser cookie
	CSRF        string    `json:"csrf"`
	User        *User     `json:"user,omitempty"`
	Expires     time.Time `json:"expires"`
}

const (
	keyPending = "oauthserver:pending:"
	// browserCookie binds pending requests to the browser that made them.
	browserCookie = "fastmcp_oauth_browser"
)

// authorize serves the authorization endpoint: it checks the request,
// keeps it pending and asks the Login who the user is. Errors found before
// the redirect URI is known to be the client's are shown as a page, never
// redirected (no open redirect).
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST")
		s.errorPage(w, http.StatusMethodNotAllowed, "Method not allowed", "The authorization endpoint takes GET.")
		return
	}
	ctx := r.Context()
	q := r.URL.Query()
	if r.Method == http.MethodPost {
		if err := r.ParseForm(); err != nil {
			s.errorPage(w, http.StatusBadRequest, "Invalid request", "The form could not be read.")
			return
		}
		q = r.Form
	}
	cl, err := s.clients.get(ctx, q.Get("client_id"))
	if err != nil {
		s.cfg.Logger.Info("oauthserver: authorization request of an unknown client", "client_id", q.Get("client_id"), "error", err)
		s.errorPage(w, http.StatusBadRequest, "Unknown client", "This application is not registered with this server.")
		return
	}
	redirect := q.Get("redirect_uri")
	if redirect == "" && len(cl.RedirectURIs) == 1 {
		redirect = cl.RedirectURIs[0]
	}
	if !redirectAllowed(cl.RedirectURIs, redirect) {
		s.errorPage(w, http.StatusBadRequest, "Invalid redirect URI", "The address this application asked to return to is not one it registered.")
		return
	}
	state := q.Get("state")
	resource, oerr := s.checkAuthorizeParams(q)
	if oerr != nil {
		s.redirectError(w, r, redirect, state, oerr.code, oerr.desc)
		return
	}
	if _, err := s.provider.NewAuthorizeRequest(ctx, asGet(r, q)); err != nil {
		code, desc := oauthError(err)
		s.redirectError(w, r, redirect, state, code, desc)
		return
	}
	p := &pending{
		ID: randomString(24), Query: q.Encode(), ClientID: cl.ID, RedirectURI: redirect, State: state,
		Scopes: strings.Fields(q.Get("scope")), Resource: resource, CSRF: randomString(24),
		Browser: s.browser(w, r), Expires: s.cfg.now().Add(s.cfg.AuthorizationTimeout),
	}
	if err := s.savePending(ctx, p); err != nil {
		s.serverError(w, err)
		return
	}
	s.proceed(w, r, p, cl)
}

// oauthErr is an OAuth error code and description.
type oauthErr struct{ code, desc string }

// checkAuthorizeParams checks what fosite does not: PKCE with S256, and
// the resource, which it returns.
func (s *Server) checkAuthorizeParams(q url.Values) (string, *oauthErr) {
	if q.Get("response_type") != "code" {
		return "", &oauthErr{"unsupported_response_type", "only response_type=code is supported"}
	}
	if q.Get("code_challenge") == "" {
		return "", &oauthErr{"invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256"}
	}
	if q.Get("code_challenge_method") != "S256" {
		return "", &oauthErr{"invalid_request", "code_challenge_method must be S256"}
	}
	return s.resource(q["resource"])
}

// resource picks the resource (RFC 8707) a request asks for.
func (s *Server) resource(asked []string) (string, *oauthErr) {
	switch {
	case len(asked) > 1:
		return "", &oauthErr{"invalid_target", "one resource per request"}
	case len(asked) == 0 && len(s.cfg.Resources) == 1:
		return s.cfg.Resources[0], nil
	case len(asked) == 0:
		return "", &oauthErr{"invalid_target", "resource is required: this server issues tokens for several"}
	case !slices.Contains(s.cfg.Resources, asked[0]):
		return "", &oauthErr{"invalid_target", "this server issues no tokens for that resource"}
	}
	return asked[0], nil
}

// asGet is r as a GET of the query q, for fosite to parse.
func asGet(r *http.Request, q url.Values) *http.Request {
	g := r.Clone(r.Context())
	g.Method = http.MethodGet
	u := *r.URL
	u.RawQuery = q.Encode()
	g.URL = &u
	g.Body = http.NoBody
	g.ContentLength = 0
	g.Form, g.PostForm = nil, nil
	g.Header = r.Header.Clone()
	g.Header.Del("Content-Type")
	return g
}

// browser returns the hash of the browser's cookie, setting one first
// when it has none.
func (s *Server) browser(w http.ResponseWriter, r *http.Request) string {
	v := ""
	if c, err := r.Cookie(browserCookie); err == nil && len(c.Value) >= 32 {
		v = c.Value
	} else {
		v = randomString(32)
		http.SetCookie(w, &http.Cookie{
			Name: browserCookie, Value: v, Path: s.base + pathAuthorize,
			HttpOnly: true, Secure: s.issuer.Scheme == "https", SameSite: http.SameSiteLaxMode,
		})
	}
	return hashHex(v)
}

func hashHex(v string) string {
	sum := sha256.Sum256([]byte(v))
	return hex.EncodeToString(sum[:])
}

// sameBrowser reports whether r comes from the browser p was made in.
func sameBrowser(r *http.Request, p *pending) bool {
	c, err := r.Cookie(browserCookie)
	return err == nil && subtle.ConstantTimeCompare([]byte(hashHex(c.Value)), []byte(p.Browser)) == 1
}

func (s *Server) savePending(ctx context.Context, p *pending) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	ttl := p.Expires.Sub(s.cfg.now())
	if ttl <= 0 {
		return errors.New("oauthserver: the authorization request expired")
	}
	return s.kv.Set(ctx, keyPending+p.ID, b, ttl)
}

// loadPending returns the pending request id; take removes it (one
// answer per request).
func (s *Server) loadPending(ctx context.Context, id string, take bool) (*pending, error) {
	if id == "" || len(id) > 64 {
		return nil, store.ErrKeyNotFound
	}
	get := s.kv.Get
	if take {
		get = s.kv.Take
	}
	b, err := get(ctx, keyPending+id)
	if err != nil {
		return nil, err
	}
	var p pending
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("oauthserver: decoding a pending request: %w", err)
	}
	return &p, nil
}

// resume serves the page the browser comes back to after signing in.
func (s *Server) resume(w http.ResponseWriter, r *http.Request) {
	p, err := s.loadPending(r.Context(), r.URL.Query().Get("request"), false)
	if errors.Is(err, store.ErrKeyNotFound) {
		s.errorPage(w, http.StatusBadRequest, "Request expired", "This authorization request is unknown or expired: start again from the application.")
		return
	} else if err != nil {
		s.serverError(w, err)
		return
	}
	if !sameBrowser(r, p) {
		s.errorPage(w, http.StatusForbidden, "Wrong browser", "This authorization request was started in another browser: start again from the application.")
		return
	}
	cl, err := s.clients.get(r.Context(), p.ClientID)
	if err != nil {
		s.serverError(w, err)
		return
	}
	s.proceed(w, r, p, cl)
}

// proceed asks the Login for the user, then shows the consent page (or,
// for a trusted client, issues the code).
func (s *Server) proceed(w http.ResponseWriter, r *http.Request, p *pending, cl *client) {
	ctx := r.Context()
	if p.User == nil {
		req := &Request{
			ID: p.ID, ClientID: cl.ID, ClientName: cl.Name, RedirectURI: p.RedirectURI,
			Scopes: slices.Clone(p.Scopes), Resource: p.Resource,
			ReturnURL: s.cfg.Issuer + pathResume + "?request=" + url.QueryEscape(p.ID),
		}
		u, err := s.cfg.Login.Login(w, r, req)
		if err != nil {
			s.cfg.Logger.Info("oauthserver: login refused", "client_id", cl.ID, "error", err)
			_ = s.kv.Delete(ctx, keyPending+p.ID)
			s.redirectError(w, r, p.RedirectURI, p.State, "access_denied", "the user was not signed in")
			return
		}
		if u == nil {
			return // the Login wrote its page
		}
		if u.Subject == "" || len(u.Subject) > 255 {
			s.serverError(w, fmt.Errorf("oauthserver: Login returned a user with a Subject of %d bytes (1 to 255)", len(u.Subject)))
			return
		}
		p.User = u
		if err := s.savePending(ctx, p); err != nil {
			s.serverError(w, err)
			return
		}
	}
	if cl.Trusted {
		if p, err := s.loadPending(ctx, p.ID, true); err == nil {
			s.issueCode(w, r, p)
			return
		}
		s.errorPage(w, http.StatusBadRequest, "Request already answered", "Start again from the application.")
		return
	}
	s.consentPage(w, p, cl)
}
