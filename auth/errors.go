package auth

import "errors"

// Errors a TokenVerifier returns (wrapped, so callers test them with
// errors.Is). RequireBearerToken turns them into the HTTP answer:
// ErrInvalidToken into 401 with error="invalid_token", ErrInsufficientScope
// into 403 with error="insufficient_scope", ErrUnavailable into 503 without
// a challenge (the client's token may be fine; the server could not check
// it). Any other error from a verifier is treated as ErrInvalidToken.
var (
	// ErrInvalidToken means the token is malformed, expired, not yet
	// valid, revoked, signed by an unknown key, issued by another issuer or
	// for another resource.
	ErrInvalidToken = errors.New("auth: invalid token")

	// ErrInsufficientScope means the token is valid but lacks a scope the
	// request needs.
	ErrInsufficientScope = errors.New("auth: insufficient scope")

	// ErrUnavailable means the verifier could not reach what it needs to
	// decide (the issuer's metadata, its key set, the introspection
	// endpoint).
	ErrUnavailable = errors.New("auth: authorization server unavailable")
)
