package auth

import "net/http"

// WriteInsufficientScopeFor is WriteInsufficientScope in the scheme info's
// token was presented with: a DPoP challenge (DPoP error="insufficient_scope",
// scope="…", resource_metadata="…") for a DPoP-bound token (one with
// ConfirmationJKT, which RequireBearerToken accepts only under the DPoP
// scheme), a Bearer challenge otherwise, info nil included (RFC 9449 §7.1).
// Handlers behind RequireBearerToken call it with TokenInfoFrom(r.Context()).
func WriteInsufficientScopeFor(w http.ResponseWriter, info *TokenInfo, resourceMetadataURL string, scopes ...string) {
	c := challenge{code: errCodeInsufficientScope, scopes: scopes, metadata: resourceMetadataURL}
	if info != nil && info.ConfirmationJKT != "" {
		c.scheme = "DPoP"
	}
	w.Header().Set("WWW-Authenticate", c.String())
	http.Error(w, "insufficient scope", http.StatusForbidden)
}
