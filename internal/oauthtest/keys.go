package oauthtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// keys is the server's signing key and its JWT signer.
type keys struct {
	private jose.JSONWebKey
	signer  jose.Signer
}

func newKeys(alg string) (*keys, error) {
	var priv any
	var err error
	switch alg {
	case "ES256":
		priv, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case "RS256":
		priv, err = rsa.GenerateKey(rand.Reader, 2048)
	default:
		return nil, fmt.Errorf("oauthtest: Options.Algorithm %q is not supported: use ES256 or RS256", alg)
	}
	if err != nil {
		return nil, fmt.Errorf("oauthtest: generating the signing key: %w", err)
	}
	k := jose.JSONWebKey{Key: priv, Algorithm: alg, Use: "sig"}
	thumb, err := k.Thumbprint(cryptoSHA256)
	if err != nil {
		return nil, fmt.Errorf("oauthtest: %w", err)
	}
	k.KeyID = b64(thumb)[:16]
	opts := (&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", k.KeyID)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(alg), Key: priv}, opts)
	if err != nil {
		return nil, fmt.Errorf("oauthtest: %w", err)
	}
	return &keys{private: k, signer: signer}, nil
}

func (s *Server) serveJWKS(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{s.keys.private.Public()}})
}

// TokenRequest describes an access token for Token to mint.
type TokenRequest struct {
	// Subject is "sub"; empty means the server's Options.Subject.
	Subject string
	// ClientID is "client_id"; empty means "oauthtest-client".
	ClientID string
	// Audience is "aud": the resources the token is for. Required.
	Audience []string
	// Scopes are joined into "scope".
	Scopes []string
	// Lifetime sets "exp" from now; zero means Options.TokenLifetime.
	// Negative gives a token that has already expired.
	Lifetime time.Duration
	// Claims replace the claims the fields above give, or add others; a
	// nil value deletes a claim. Tests use them for tokens a verifier
	// must refuse (another issuer, no expiry, ...).
	Claims map[string]any
}

// Token mints a signed access token as the token endpoint would, without
// the flow.
func (s *Server) Token(req TokenRequest) (string, error) {
	if len(req.Audience) == 0 {
		return "", fmt.Errorf("oauthtest: TokenRequest.Audience is required")
	}
	if req.Subject == "" {
		req.Subject = s.opts.Subject
	}
	if req.ClientID == "" {
		req.ClientID = "oauthtest-client"
	}
	if req.Lifetime == 0 {
		req.Lifetime = s.opts.TokenLifetime
	}
	return s.sign(req.Subject, req.ClientID, req.Audience, req.Scopes, req.Lifetime, req.Claims)
}

// MustToken is Token for tests: it fails tb when the token cannot be
// minted.
func (s *Server) MustToken(tb testing.TB, req TokenRequest) string {
	tb.Helper()
	tok, err := s.Token(req)
	if err != nil {
		tb.Fatal(err)
	}
	return tok
}

// sign returns an RFC 9068 access token.
func (s *Server) sign(subject, clientID string, audience, scopes []string, lifetime time.Duration, extra map[string]any) (string, error) {
	now := time.Now()
	jti := randomString(16)
	s.mu.Lock()
	s.issued[jti] = true
	s.mu.Unlock()
	claims := map[string]any{
		"iss":       s.URL(),
		"sub":       subject,
		"client_id": clientID,
		"iat":       now.Unix(),
		"exp":       now.Add(lifetime).Unix(),
		"jti":       jti,
	}
	if len(audience) == 1 {
		claims["aud"] = audience[0]
	} else {
		claims["aud"] = audience
	}
	if len(scopes) > 0 {
		claims["scope"] = joinScopes(scopes)
	}
	for k, v := range extra {
		if v == nil {
			delete(claims, k)
		} else {
			claims[k] = v
		}
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", fmt.Errorf("oauthtest: %w", err)
	}
	jws, err := s.keys.signer.Sign(payload)
	if err != nil {
		return "", fmt.Errorf("oauthtest: signing a token: %w", err)
	}
	return jws.CompactSerialize()
}
