package auth

import "net/http"

// challengeKey marks, in the context of a request RequireBearerToken let
// through, what its challenges name: a challengeParams.
type challengeKey struct{}

// challengeParams are what the middleware's challenges name besides the
// error: the metadata URL, and the DPoP proof algorithms when DPoP is on.
type challengeParams struct {
	metadata string
	algs     []string
}

func (b *bearer) challengeParams() challengeParams {
	p := challengeParams{metadata: b.metadata}
	if b.dpop != nil {
		p.algs = b.dpop.algNames
	}
	return p
}

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
// An empty resourceMetadataURL names the middleware's
// BearerOptions.ResourceMetadataURL (none when the request did not pass
// RequireBearerToken).
func WriteInsufficientScopeFor(w http.ResponseWriter, r *http.Request, resourceMetadataURL string, scopes ...string) {
	p, _ := r.Context().Value(challengeKey{}).(challengeParams)
	c := challenge{code: errCodeInsufficientScope, scopes: scopes, metadata: resourceMetadataURL}
	if c.metadata == "" {
		c.metadata = p.metadata
	}
	if info := TokenInfoFrom(r.Context()); info != nil && info.ConfirmationJKT != "" {
		c.scheme, c.algs = "DPoP", p.algs
	}
	w.Header().Set("WWW-Authenticate", c.String())
	http.Error(w, "insufficient scope", http.StatusForbidden)
}
