// Package oauthtest is a small, real OAuth 2.1 authorization server for
// tests and interop runs: everything an MCP client needs to authorize
// against a protected MCP server, with no user interface.
//
// It serves
//
//   - its metadata (RFC 8414) at /.well-known/oauth-authorization-server
//     and, for clients that look there, /.well-known/openid-configuration;
//   - its key set at /jwks: one signing key (ES256 or RS256) generated when
//     the Server is created;
//   - dynamic client registration (RFC 7591) at /register, for public
//     clients ("none") and confidential ones (client_secret_basic,
//     client_secret_post; Options.AuthMethods limits them); Register
//     pre-registers clients, also private_key_jwt ones (RFC 7523);
//   - /authorize, which approves every valid request at once: it
//     redirects to the client's redirect_uri with code, state and iss (RFC
//     9207); a loopback redirect URI matches with any port (RFC 8252).
//     PKCE with S256 is required; the resource parameters (RFC 8707)
//     are remembered for the token;
//   - /token for the authorization_code grant (the PKCE verifier, the
//     redirect_uri and the client checked), refresh_token (rotated on
//     each use) and client_credentials, issuing JWT access tokens (RFC
//     9068: typ at+jwt; iss, sub, aud = the resource, client_id, scope,
//     exp, iat, jti), bound to the key of a DPoP proof (RFC 9449) with
//     Options.DPoP.
//
// With Options.Path the issuer has a path, as a multi-tenant provider's
// does, and the metadata moves to the path-aware well-known locations.
//
// The subject of the tokens is Options.Subject ("interop-user" by
// default), or the login_hint the authorization request names, so a test
// can play several users. The scopes granted are those requested (or
// Options.DefaultScopes), limited to Options.UserScopes when it is set.
//
// Start a Server on 127.0.0.1 with NewServer(t, opts) in a test, or New
// then Start in a program; its URL is its issuer identifier. Token mints a
// token directly, for tests that do not need the flow.
//
// Hooks for tests of clients: Requests logs what clients sent to each
// endpoint; Check verifies an access token as a resource server that asks
// the server would; RevokeAccessTokens and RevokeRefreshTokens make the
// tokens issued so far stop working; SetDeny makes the user decline.
package oauthtest
