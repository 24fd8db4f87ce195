package auth

import (
	"context"
	"net/http"

	"github.com/fastmcp-go/fastmcp/authinfo"
)

// TokenInfo is what a TokenVerifier learned from a valid access token; see
// authinfo.TokenInfo. RequireBearerToken puts it in the request's context,
// where handlers read it with TokenInfoFrom. It is declared in package
// authinfo, which imports only the standard library, so that code reading
// the token (fastmcp's Context.Auth) does not link the verifiers.
type TokenInfo = authinfo.TokenInfo

// ContextWithTokenInfo returns a copy of ctx that carries info. The bearer
// middleware calls it; tests and other middleware can too. It is
// authinfo.NewContext.
func ContextWithTokenInfo(ctx context.Context, info *TokenInfo) context.Context {
	return authinfo.NewContext(ctx, info)
}

// TokenInfoFrom returns the verified token of the request whose context is
// ctx, or nil when the request did not pass RequireBearerToken. It is
// authinfo.FromContext.
func TokenInfoFrom(ctx context.Context) *TokenInfo { return authinfo.FromContext(ctx) }

// PrincipalFromRequest returns the Principal of the request's verified
// token, or "" when it has none. It has the shape of fastmcp's
// HTTPPrincipal and transport's HTTPOptions.Principal, for a handler
// mounted behind RequireBearerToken. It is authinfo.PrincipalFromRequest.
func PrincipalFromRequest(r *http.Request) string { return authinfo.PrincipalFromRequest(r) }
