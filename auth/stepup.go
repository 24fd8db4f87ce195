package auth

import (
	"net/http"

	"github.com/fastmcp-go/fastmcp/authinfo"
)

// challengeParams are what the middleware's challenges name besides the
// error, recorded in the context of each request it lets through (for
// WriteInsufficientScopeFor): the scopes every token needs, the metadata
// URL, and the DPoP proof algorithms when DPoP is on.
func (b *bearer) challengeParams() authinfo.Challenge {
	c := authinfo.Challenge{Scopes: b.scopes, ResourceMetadata: b.metadata}
	if b.dpop != nil {
		c.Algs = b.dpop.algNames
	}
	return c
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
// The scope parameter names the middleware's BearerOptions.Scopes, which
// every token needs, followed by scopes, so that a client asking for them
// keeps the base ones. An empty resourceMetadataURL names the
// middleware's BearerOptions.ResourceMetadataURL (none when the request
// did not pass RequireBearerToken). It is authinfo.WriteInsufficientScope.
func WriteInsufficientScopeFor(w http.ResponseWriter, r *http.Request, resourceMetadataURL string, scopes ...string) {
	authinfo.WriteInsufficientScope(w, r, resourceMetadataURL, scopes...)
}
