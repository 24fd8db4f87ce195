// Package oauthclient authorizes an MCP client with the server's OAuth 2.1
// authorization server, as the MCP authorization specification
// (2025-11-25 and 2026-07-28, with the 2025-03-26 fallbacks) profiles it.
//
// A Transport is an http.RoundTripper for one MCP server. It sends every
// request with the current access token; when the server answers 401 it
// refreshes the token once, or runs the whole flow:
//
//   - protected resource metadata (RFC 9728): the URL of the challenge's
//     resource_metadata, else the path-aware well-known URL, then the
//     root one; metadata for another resource is refused;
//   - authorization server metadata (RFC 8414, OpenID Connect Discovery)
//     at the well-known URLs in the order the specification gives; its
//     issuer must be the one the URL was built from;
//   - client registration: a client ID metadata document URL (SEP-991)
//     when the authorization server accepts one, else pre-registered
//     credentials, else dynamic registration (RFC 7591); registrations are
//     per authorization server and never reused with another;
//   - the authorization code grant with PKCE S256, state, the resource
//     indicator (RFC 8707) and the iss check (RFC 9207): Config.OpenURL
//     sends the user to the authorization page and a loopback listener at
//     Config.RedirectURL receives the response;
//   - the token request, authenticated as registered (none,
//     client_secret_basic or client_secret_post).
//
// The scopes asked for are the challenge's, else the resource metadata's
// scopes_supported, else none (plus Config.Scopes, and offline_access when
// the authorization server offers it). A 403 insufficient_scope answer
// authorizes again with the scopes the server asks for added to the ones
// held, up to Config.MaxAuthorizations per request.
//
// Tokens and registrations live in a TokenStore: in memory by default, or
// in a file (NewFileStore) so a restarted client reuses them. A request
// that cannot be authorized fails with an *Error, never with the server's
// 401 answer dressed up as a result.
//
// A Config is a client.HTTPAuthorizer: client.OAuth(oauthclient.Config{...})
// plugs its Transport into client.ConnectHTTP.
package oauthclient
