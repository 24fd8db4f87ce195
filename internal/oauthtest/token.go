package oauthtest

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"
)

// verifierPattern is RFC 7636 §4.1's code_verifier.
var verifierPattern = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// serveToken is the token endpoint: the authorization_code,
// refresh_token, client_credentials and JWT bearer grants.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request", "cannot read the form: "+err.Error())
		return
	}
	req := Request{Endpoint: "token", Params: r.PostForm}
	if id, _, ok := r.BasicAuth(); ok {
		req.BasicClientID, _ = url.QueryUnescape(id)
	}
	s.record(req)
	c, why := s.authenticate(r)
	if c == nil {
		writeError(w, http.StatusUnauthorized, "invalid_client", why)
		return
	}
	jkt, ok := s.dpopBinding(w, r)
	if !ok {
		return
	}
	g, ok := s.tokenGrant(w, r, c)
	if !ok {
		return
	}
	s.issueToken(w, r, c, g, jkt)
}

// tokenGrant is the grant a token request for client c stands on, by its
// grant_type. When there is none it writes the error and returns false.
func (s *Server) tokenGrant(w http.ResponseWriter, r *http.Request, c *Client) (*grant, bool) {
	switch gt := r.PostForm.Get("grant_type"); gt {
	case "authorization_code":
		return s.codeGrant(w, r, c)
	case "refresh_token":
		if !slices.Contains(c.GrantTypes, "refresh_token") {
			writeError(w, http.StatusBadRequest, "unauthorized_client", "the client did not register the refresh_token grant")
			return nil, false
		}
		g, ok := s.fresh.take(r.PostForm.Get("refresh_token"))
		if !ok || g.clientID != c.ID {
			writeError(w, http.StatusBadRequest, "invalid_grant", "the refresh token is unknown, used or issued to another client")
			return nil, false
		}
		return g, true
	case "client_credentials":
		if !slices.Contains(c.GrantTypes, "client_credentials") {
			writeError(w, http.StatusBadRequest, "unauthorized_client", "the client did not register the client_credentials grant")
			return nil, false
		}
		requested, ok := s.formScopes(w, r)
		if !ok {
			return nil, false
		}
		return &grant{clientID: c.ID, subject: c.ID, scopes: requested}, true
	case JWTBearerGrant:
		if s.opts.Assertions == nil || !slices.Contains(c.GrantTypes, JWTBearerGrant) {
			writeError(w, http.StatusBadRequest, "unauthorized_client", "the client may not use the JWT bearer grant here")
			return nil, false
		}
		subject, err := s.opts.Assertions(r.PostForm.Get("assertion"))
		if err != nil {
			writeError(w, http.StatusBadRequest, "invalid_grant", "assertion refused: "+err.Error())
			return nil, false
		}
		requested, ok := s.formScopes(w, r)
		if !ok {
			return nil, false
		}
		return &grant{clientID: c.ID, subject: subject, scopes: requested}, true
	case "":
		writeError(w, http.StatusBadRequest, "invalid_request", "grant_type is required")
		return nil, false
	default:
		writeError(w, http.StatusBadRequest, "unsupported_grant_type", "grant type "+gt+" is not supported ("+strings.Join(s.grantTypes(), ", ")+")")
		return nil, false
	}
}

// codeGrant redeems an authorization code for client c: the redirect URI
// of the authorization request and the PKCE verifier must match. When they
// do not it writes the error and returns false.
func (s *Server) codeGrant(w http.ResponseWriter, r *http.Request, c *Client) (*grant, bool) {
	g, ok := s.codes.take(r.PostForm.Get("code"))
	if !ok || g.clientID != c.ID {
		writeError(w, http.StatusBadRequest, "invalid_grant", "the code is unknown, used, expired or issued to another client")
		return nil, false
	}
	if ru := r.PostForm.Get("redirect_uri"); ru != g.redirectURI && (g.redirectURI != "" || ru != "" && !c.allowsRedirect(ru)) {
		writeError(w, http.StatusBadRequest, "invalid_grant", "redirect_uri does not match the authorization request's")
		return nil, false
	}
	v := r.PostForm.Get("code_verifier")
	sum := sha256.Sum256([]byte(v))
	if !verifierPattern.MatchString(v) || subtle.ConstantTimeCompare([]byte(b64(sum[:])), []byte(g.challenge)) != 1 {
		writeError(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code_challenge (PKCE S256)")
		return nil, false
	}
	return g, true
}

// issueToken answers a token request for client c on grant g with an
// access token (bound to the DPoP key jkt when not empty), narrowed to the
// scope and resource the request asks for, and a refresh token when the
// client registered that grant.
func (s *Server) issueToken(w http.ResponseWriter, r *http.Request, c *Client, g *grant, jkt string) {
	scopes := g.scopes
	if sc := splitScopes(r.PostForm.Get("scope")); len(sc) > 0 {
		if !subset(sc, g.scopes) {
			writeError(w, http.StatusBadRequest, "invalid_scope", "the scope asked for exceeds the scope granted: "+joinScopes(g.scopes))
			return
		}
		scopes = sc
	}
	audience := g.resources
	if res := r.PostForm["resource"]; len(res) > 0 {
		if !validResources(res) || len(g.resources) > 0 && !subset(res, g.resources) {
			writeError(w, http.StatusBadRequest, "invalid_target", "resource must be one the authorization request named")
			return
		}
		audience = res
	}
	if len(audience) == 0 {
		writeError(w, http.StatusBadRequest, "invalid_target", "a resource parameter (RFC 8707) is required: it becomes the token's audience")
		return
	}
	var extra map[string]any
	tokenType := "Bearer"
	if jkt != "" {
		extra, tokenType = map[string]any{"cnf": map[string]any{"jkt": jkt}}, "DPoP"
	}
	token, err := s.sign(g.subject, c.ID, audience, scopes, s.opts.TokenLifetime, extra)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "server_error", err.Error())
		return
	}
	answer := map[string]any{
		"access_token": token,
		"token_type":   tokenType,
		"expires_in":   int64(s.opts.TokenLifetime.Seconds()),
	}
	if len(scopes) > 0 {
		answer["scope"] = joinScopes(scopes)
	}
	if slices.Contains(c.GrantTypes, "refresh_token") {
		rt := randomString(32)
		s.fresh.put(rt, g, g.expires) // the grant keeps its scopes and resources
		answer["refresh_token"] = rt
	}
	writeJSON(w, http.StatusOK, answer)
}

// authenticate finds the client a token request comes from and checks
// its credentials by the method it registered; it returns nil and why
// when they do not pass.
func (s *Server) authenticate(r *http.Request) (*Client, string) {
	if a := r.PostForm.Get("client_assertion"); a != "" {
		return s.authenticateAssertion(a, r.PostForm.Get("client_assertion_type"), r.PostForm.Get("client_id"))
	}
	id, secret, basic := r.BasicAuth()
	if basic {
		// RFC 6749 §2.3.1: form-urlencoded before base64.
		var err1, err2 error
		id, err1 = url.QueryUnescape(id)
		secret, err2 = url.QueryUnescape(secret)
		if err1 != nil || err2 != nil {
			return nil, "malformed Basic credentials"
		}
		if fid := r.PostForm.Get("client_id"); fid != "" && fid != id {
			return nil, "client_id in the form and in the Authorization header differ"
		}
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id == "" {
		return nil, "no client_id"
	}
	c := s.client(id)
	if c == nil {
		return nil, "unknown client " + id
	}
	method := "client_secret_post"
	switch {
	case basic:
		method = "client_secret_basic"
	case secret == "":
		method = "none"
	}
	if method != c.AuthMethod {
		return nil, "the client registered token_endpoint_auth_method " + c.AuthMethod + " but authenticated with " + method
	}
	if c.Secret != "" && subtle.ConstantTimeCompare([]byte(secret), []byte(c.Secret)) != 1 {
		return nil, "wrong client secret"
	}
	return c, ""
}

// authenticateAssertion checks a private_key_jwt client assertion (RFC
// 7523 §3): signed by the client's PublicKey, iss and sub its ID, aud the
// issuer or the token endpoint, not expired, with a jti.
func (s *Server) authenticateAssertion(assertion, typ, formID string) (*Client, string) {
	if typ != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" {
		return nil, "client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	}
	tok, err := jwt.ParseSigned(assertion, dpopAlgs)
	if err != nil {
		return nil, "client assertion: " + err.Error()
	}
	var unverified jwt.Claims
	if err := tok.UnsafeClaimsWithoutVerification(&unverified); err != nil {
		return nil, "client assertion: " + err.Error()
	}
	c := s.client(unverified.Subject)
	if c == nil || c.AuthMethod != "private_key_jwt" || (formID != "" && formID != c.ID) {
		return nil, "the client assertion's subject is not a private_key_jwt client"
	}
	var claims jwt.Claims
	if err := tok.Claims(c.PublicKey, &claims); err != nil {
		return nil, "client assertion: " + err.Error()
	}
	want := jwt.Expected{Issuer: c.ID, Subject: c.ID, AnyAudience: jwt.Audience{s.URL(), s.URL() + "/token"}, Time: time.Now()}
	if err := claims.Validate(want); err != nil || claims.ID == "" || claims.Expiry == nil {
		return nil, fmt.Sprintf("client assertion claims: want iss and sub %s, aud the issuer, exp and jti: %v", c.ID, err)
	}
	return c, ""
}

// formScopes returns the scopes a token request for a new grant names; it
// answers invalid_scope and returns false when one is not supported.
func (s *Server) formScopes(w http.ResponseWriter, r *http.Request) ([]string, bool) {
	requested := splitScopes(r.PostForm.Get("scope"))
	if s.opts.ScopesSupported != nil && !subset(requested, s.opts.ScopesSupported) {
		writeError(w, http.StatusBadRequest, "invalid_scope", "unknown scope requested; supported: "+joinScopes(s.opts.ScopesSupported))
		return nil, false
	}
	return requested, true
}
