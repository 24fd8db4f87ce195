package auth

import (
	"errors"
	"fmt"
)

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

	// ErrNoSubject means the token names no subject ("sub", required in
	// JWT access tokens by RFC 9068 §2.2), or, where that is allowed
	// (JWTOptions.AllowMissingSubject,
	// IntrospectionOptions.AllowMissingSubject), no client either. It
	// wraps ErrInvalidToken; RequireBearerToken's 401 says why in its
	// error_description.
	ErrNoSubject = fmt.Errorf("%w: no subject (sub)", ErrInvalidToken)

	// ErrUnavailable means the verifier could not reach what it needs to
	// decide (the issuer's metadata, its key set, the introspection
	// endpoint).
	ErrUnavailable = errors.New("auth: authorization server unavailable")
)
