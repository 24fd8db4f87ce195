package transport

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
)

// DefaultPrincipal identifies the caller of an HTTP request by a digest of
// its Authorization header: requests carrying the same header have the
// same principal, and requests without one share the empty principal. It
// is the default of HTTPOptions.Principal and SSEOptions.Principal.
//
// The digest (128 bits of SHA-256, base64url) stands for the credentials
// without revealing them. It binds a session to the exact header, so a
// client that refreshes its token mid-session loses the session (it gets
// 404 and must initialize again); a server that verifies tokens should
// set Principal to the token's subject instead.
func DefaultPrincipal(r *http.Request) string {
	auth := r.Header.Get("Authorization")
	if auth == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(auth))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}

// samePrincipal reports whether two principals are equal, in time that
// does not depend on where they differ (only on their lengths).
func samePrincipal(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
