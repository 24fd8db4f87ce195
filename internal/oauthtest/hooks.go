package oauthtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// ErrRevoked is returned by Check for an access token that
// RevokeAccessTokens revoked.
var ErrRevoked = errors.New("oauthtest: the access token was revoked")

// Request is one request a client sent to the authorization, token or
// registration endpoint, as Requests reports it.
type Request struct {
	// Endpoint is "authorize", "token" or "register".
	Endpoint string
	// Params are the authorization request's query or the token
	// request's form; nil for a registration.
	Params url.Values
	// BasicClientID is the client ID of a token request's Authorization:
	// Basic header (form-urldecoded), or empty.
	BasicClientID string
	// Metadata is a registration's client metadata; nil for the others.
	Metadata map[string]any
}

// Requests returns the requests received so far at endpoint
// ("authorize", "token" or "register"; empty means all), oldest first,
// valid or not: tests count them and read what a client sent.
func (s *Server) Requests(endpoint string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, r := range s.requests {
		if endpoint == "" || r.Endpoint == endpoint {
			out = append(out, r)
		}
	}
	return out
}

// LastRequest returns the newest request at endpoint, or a zero Request
// when there is none.
func (s *Server) LastRequest(endpoint string) Request {
	rs := s.Requests(endpoint)
	if len(rs) == 0 {
		return Request{}
	}
	return rs[len(rs)-1]
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r)
}

// RevokeAccessTokens revokes every access token issued so far, as if
// they had expired early: Check refuses them with ErrRevoked. Refresh
// tokens stay valid, so a client can get new access tokens.
func (s *Server) RevokeAccessTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for jti := range s.issued {
		s.revoked[jti] = true
	}
	clear(s.issued)
}

// RevokeRefreshTokens revokes every refresh token issued so far: a
// client that uses one gets invalid_grant and must authorize again.
func (s *Server) RevokeRefreshTokens() { s.fresh.clear() }

// Check verifies an access token the server issued, as a resource
// server that asks the authorization server would (RFC 7662, in
// process): the signature, the issuer, the expiry and that it was not
// revoked. It returns the token's claims.
func (s *Server) Check(token string) (map[string]any, error) {
	jws, err := jose.ParseSignedCompact(token, []jose.SignatureAlgorithm{jose.SignatureAlgorithm(s.opts.Algorithm)})
	if err != nil {
		return nil, fmt.Errorf("oauthtest: %w", err)
	}
	payload, err := jws.Verify(s.keys.private.Public())
	if err != nil {
		return nil, fmt.Errorf("oauthtest: %w", err)
	}
	var c map[string]any
	if err := json.Unmarshal(payload, &c); err != nil {
		return nil, fmt.Errorf("oauthtest: %w", err)
	}
	exp, _ := c["exp"].(float64)
	jti, _ := c["jti"].(string)
	switch {
	case c["iss"] != s.URL():
		return nil, fmt.Errorf("oauthtest: token issuer %v, want %s", c["iss"], s.URL())
	case time.Now().After(time.Unix(int64(exp), 0)):
		return nil, errors.New("oauthtest: the access token has expired")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.revoked[jti] {
		return nil, ErrRevoked
	}
	return c, nil
}

// Scopes returns the scopes of an access token Check accepts, and
// whether it accepts it.
func (s *Server) Scopes(token string) ([]string, bool) {
	c, err := s.Check(token)
	if err != nil {
		return nil, false
	}
	sc, _ := c["scope"].(string)
	return slices.Clip(splitScopes(sc)), true
}
