package auth

import "net/http"

// dpopAlgsKey marks, in the context of a request RequireBearerToken let
// through with DPoP on, the proof algorithms it accepts.
type dpopAlgsKey struct{}

// WriteInsufficientScopeFor is WriteInsufficientScope for a request that
// passed RequireBearerToken, in the scheme its token was presented with:
// for a DPoP-bound token (TokenInfo.ConfirmationJKT set, which
// RequireBearerToken accepts only under the DPoP scheme) a DPoP challenge,
// as RFC 9449 §7.1 asks, naming the accepted proof algorithms like the
// middleware's own challenges:
//
//	DPoP error="insufficient_scope", scope="files:write", resource_metadata="…", algs="ES256"
//
// and a Bearer challenge otherwise, a request without a token included.
func WriteInsufficientScopeFor(w http.ResponseWriter, r *http.Request, resourceMetadataURL string, scopes ...string) {
	c := challenge{code: errCodeInsufficientScope, scopes: scopes, metadata: resourceMetadataURL}
	if info := TokenInfoFrom(r.Context()); info != nil && info.ConfirmationJKT != "" {
		c.scheme = "DPoP"
		c.algs, _ = r.Context().Value(dpopAlgsKey{}).([]string)
	}
	w.Header().Set("WWW-Authenticate", c.String())
	http.Error(w, "insufficient scope", http.StatusForbidden)
}
