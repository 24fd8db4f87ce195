// Package auth protects an HTTP endpoint, such as an MCP server's, with
// OAuth 2.1 access tokens, as the MCP authorization specification asks of
// a resource server. It is plain net/http and can be used on its own, in
// front of any handler.
//
// # The parts
//
// A protected endpoint needs three things:
//
//   - Its protected resource metadata (RFC 9728): a public JSON document
//     naming the authorization servers that issue tokens for it, served by
//     MetadataHandler at WellKnownPath(resource), for example
//     /.well-known/oauth-protected-resource/mcp for https://host/mcp.
//     Clients find it through the resource_metadata parameter of the 401
//     challenge.
//   - A TokenVerifier that decides whether a token is valid for this
//     resource: NewJWTVerifier for JWT access tokens (RFC 9068) checked
//     against the issuer's published keys, NewIntrospectionVerifier for
//     opaque tokens checked with the issuer's introspection endpoint
//     (RFC 7662), or VerifierFunc for anything else.
//   - RequireBearerToken, middleware that takes the token from the
//     Authorization header, verifies it, and answers with the status and
//     WWW-Authenticate challenge RFC 6750 and MCP prescribe when it does
//     not pass. A request that passes reaches the handler with its
//     TokenInfo in the context: TokenInfoFrom(r.Context()).
//
// For a fastmcp server, Protect puts the three together, with the metadata
// derived from the verifier and the server's scopes:
// fastmcp.Auth(auth.Protect(auth.JWT(issuer, resource))). TokenInfo and
// its context live in package authinfo (standard library only), so that
// package fastmcp reads the token without importing this package.
//
// # Audience
//
// A token must be issued for this resource: the verifiers refuse a token
// whose audience is not theirs (RFC 8707), so a token a client obtained
// for another server cannot be replayed here. Configure the
// authorization server to put the resource's canonical URL (the
// ProtectedResourceMetadata.Resource, which MCP clients send as the
// resource parameter) in the token's "aud".
//
// # Scopes
//
// BearerOptions.Scopes are required of every request; a handler that
// needs more for one operation checks TokenInfo.MissingScopes and answers
// with WriteInsufficientScope, so the client can step up by asking the
// authorization server for a token with those scopes.
//
// # DPoP
//
// With BearerOptions.DPoP set, tokens bound to a client's key (RFC 9449,
// "cnf.jkt") are accepted as "Authorization: DPoP <token>" together with
// a DPoP proof signed by that key for this request (method, URL, time,
// token hash; each proof once). Nonces (DPoPOptions.RequireNonce) are
// stateless and shared by replicas that share DPoPOptions.NonceSecret;
// the replay memory of proofs is per process, filled only by proofs whose
// token verified (DPoPOptions.MaxReplayEntries). Without DPoP set, a
// DPoP-bound token is refused, as RFC 9449 asks.
//
// # Sessions
//
// TokenInfo.Principal names the caller (issuer, subject and client).
// Tokens without a subject are refused unless AllowMissingSubject is set
// (then the principal is the client's, one for all its such tokens). Give
// it to the transport as the principal sessions are bound to, so that a
// session opened with one user's token cannot be used with another's, and
// a client that refreshes its token keeps its session: PrincipalFromRequest
// has the shape of fastmcp.HTTPPrincipal and transport.HTTPOptions.Principal.
//
// # Network access and goroutines
//
// Verifiers are built without network access. The JWT verifier fetches the
// issuer's metadata and keys when the first Verify needs them, again after
// JWTOptions.KeySetTTL or when a token names an unknown key (at most once
// per JWTOptions.MinRefetchInterval; while no keys are held, failed
// fetches are retried after JWTOptions.FetchRetryInterval, doubling). The
// only goroutine the package starts is that fetch, one at a time per
// verifier; it ends when the fetch does (bounded by the HTTP client's
// timeout). Requests whose key is cached never wait for it; a request
// naming an unknown key waits as long as its context allows.
//
// # What it does not do
//
// It is not an authorization server: it issues no tokens and registers no
// clients. Over stdio, MCP authorization does not apply; credentials come
// from the environment.
package auth
