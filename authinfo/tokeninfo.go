package authinfo

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"slices"
	"time"
)

// TokenInfo is what a token verifier (package auth's TokenVerifier)
// learned from a valid access token. Bearer middleware (auth's
// RequireBearerToken) puts it in the request's context with NewContext,
// where handlers read it with FromContext (fastmcp's Context.Auth). A
// TokenInfo in a context is shared by everything that handles the request
// and must not be modified.
type TokenInfo struct {
	// Subject is the token's "sub": the user, or for tokens a client got
	// for itself, often the client. Package auth's verifiers refuse
	// tokens without one unless told otherwise (AllowMissingSubject); it
	// is then empty.
	Subject string
	// ClientID is the OAuth client the token was issued to ("client_id";
	// from a JWT without it, "azp", Okta's "cid" or Entra's "appid").
	ClientID string
	// Issuer is the authorization server that issued the token ("iss").
	Issuer string
	// Audience lists the resources the token is for ("aud").
	Audience []string
	// Scopes are the scopes granted ("scope", or "scp" as some issuers
	// name it).
	Scopes []string
	// Expiry is when the token expires ("exp"); zero if it does not say.
	Expiry time.Time
	// NotBefore is when the token becomes valid ("nbf"); zero if it does
	// not say.
	NotBefore time.Time
	// IssuedAt is when the token was issued ("iat"); zero if it does not
	// say.
	IssuedAt time.Time
	// ID is the token's identifier ("jti"); empty if it has none.
	ID string
	// ConfirmationJKT is the SHA-256 thumbprint of the key the token is
	// bound to ("cnf.jkt", RFC 9449); empty for a plain bearer token.
	ConfirmationJKT string
	// Claims holds every claim of a JWT, or every member of an
	// introspection response, as decoded from JSON.
	Claims map[string]any
}

// HasScopes reports whether the token grants every one of scopes.
func (t *TokenInfo) HasScopes(scopes ...string) bool {
	for _, s := range scopes {
		if !slices.Contains(t.Scopes, s) {
			return false
		}
	}
	return true
}

// MissingScopes returns those of scopes the token does not grant, in the
// order given; nil when it grants them all.
func (t *TokenInfo) MissingScopes(scopes ...string) []string {
	var missing []string
	for _, s := range scopes {
		if !slices.Contains(t.Scopes, s) {
			missing = append(missing, s)
		}
	}
	return missing
}

// Principal names the caller the token stands for: the issuer, the
// subject and the client together, as a 128-bit digest (base64url). Two
// tokens of the same user through the same client have the same
// principal, so a client that refreshes its token keeps its session; the
// same subject through another client, or from another issuer, is another
// principal. A token without a subject (accepted only with
// auth's AllowMissingSubject) stands for its client: every such token of one
// client is one principal. Use it as the principal sessions are bound to (fastmcp's
// HTTPPrincipal, transport's HTTPOptions.Principal).
func (t *TokenInfo) Principal() string {
	h := sha256.New()
	for _, s := range []string{t.Issuer, t.Subject, t.ClientID} {
		// Length-prefixed, so that no two triples give the same input.
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(s))))
		h.Write([]byte(s))
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:16])
}

type tokenInfoKey struct{}

// NewContext returns a copy of ctx that carries info, the verified token
// of the request ctx belongs to. Bearer middleware calls it; tests and
// other middleware can too.
func NewContext(ctx context.Context, info *TokenInfo) context.Context {
	return context.WithValue(ctx, tokenInfoKey{}, info)
}

// FromContext returns the verified token of the request whose context is
// ctx, or nil when no bearer middleware let the request through.
func FromContext(ctx context.Context) *TokenInfo {
	info, _ := ctx.Value(tokenInfoKey{}).(*TokenInfo)
	return info
}

// PrincipalFromRequest returns the Principal of the request's verified
// token, or "" when it has none. It has the shape of fastmcp's
// HTTPPrincipal and transport's HTTPOptions.Principal, for a handler
// mounted behind bearer middleware.
func PrincipalFromRequest(r *http.Request) string {
	if info := FromContext(r.Context()); info != nil {
		return info.Principal()
	}
	return ""
}
