// Package authinfo carries what bearer middleware learned about the caller
// of an HTTP request: the verified access token (TokenInfo) in the
// request's context, and what a 403 insufficient_scope answer to that
// request names (Challenge, WriteInsufficientScope).
//
// It is the meeting point of the code that verifies tokens (package auth,
// which puts a TokenInfo in the context) and the code that reads them
// (fastmcp's Context.Auth and RequireScopes, or any handler). It imports
// only the standard library, so a server that reads the caller's token
// does not link the token verification (JOSE, key sets, DPoP) that package
// auth brings. Package auth names the same types: auth.TokenInfo is
// TokenInfo.
package authinfo
