package oauthclient

import (
	"errors"
	"strings"
)

// Sentinel errors, matched with errors.Is through an *Error.
var (
	// ErrResourceMismatch: the protected resource metadata names a
	// resource that is not the server the client talks to (RFC 9728 §3.3).
	ErrResourceMismatch = errors.New("oauthclient: protected resource metadata is for another resource")
	// ErrIssuerMismatch: authorization server metadata whose issuer is not
	// the one its URL was built from (RFC 8414 §3.3), or an authorization
	// response whose iss is not the authorization server's (RFC 9207).
	ErrIssuerMismatch = errors.New("oauthclient: issuer mismatch")
	// ErrNoMetadata: no authorization server metadata could be found.
	ErrNoMetadata = errors.New("oauthclient: no authorization server metadata")
	// ErrNoPKCE: the authorization server does not support PKCE with S256,
	// which MCP requires.
	ErrNoPKCE = errors.New("oauthclient: authorization server does not support PKCE S256")
	// ErrNoRegistration: the client has no way to identify itself to the
	// authorization server: no client ID metadata document it accepts, no
	// pre-registered credentials, no registration endpoint.
	ErrNoRegistration = errors.New("oauthclient: no client registration possible")
	// ErrStateMismatch: the authorization response's state is not the one
	// the request carried.
	ErrStateMismatch = errors.New("oauthclient: authorization response state mismatch")
	// ErrAuthorizationDenied: the authorization server answered the
	// authorization request with an error (the user declined, ...).
	ErrAuthorizationDenied = errors.New("oauthclient: authorization denied")
	// ErrInsecureURL: an endpoint is neither https nor on a loopback host.
	ErrInsecureURL = errors.New("oauthclient: endpoint must use https (or a loopback host)")
	// ErrRetryLimit: the server kept refusing after the client authorized
	// again as many times as Config.MaxAuthorizations allows.
	ErrRetryLimit = errors.New("oauthclient: authorization retry limit reached")
	// ErrNoBrowser: an authorization code grant is needed but Config has no
	// OpenURL to show the user the authorization page.
	ErrNoBrowser = errors.New("oauthclient: no OpenURL to send the user to the authorization page")
	// ErrTokenRequest: the token endpoint refused a request; *Error.Code
	// and Description carry its answer.
	ErrTokenRequest = errors.New("oauthclient: token request failed")
)

// Error is an authorization failure: the step that failed, the endpoint
// involved and why. It is what a request made through a Transport fails
// with when the client could not get a token the server accepts, so the
// failure is never taken for an answer of the MCP server. Err matches one
// of the sentinel errors (or wraps a network or decoding error).
type Error struct {
	// Op is the step: "discover resource metadata", "discover
	// authorization server", "register", "authorize", "exchange code",
	// "refresh", "request token", "step up".
	Op string
	// URL is the endpoint involved, if any.
	URL string
	// Code and Description are the OAuth error the authorization server or
	// resource server returned, if any (RFC 6749 §5.2, RFC 6750 §3).
	Code        string
	Description string
	// Err is the cause.
	Err error
}

// NotAuthorized reports true: the request the error ends could not be
// authorized, and sending it again would only start the flow again (a
// fastmcp client does not re-issue it; see client.HTTPAuthorizer).
func (e *Error) NotAuthorized() bool { return true }

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("oauthclient: ")
	b.WriteString(e.Op)
	if e.URL != "" {
		b.WriteString(" (")
		b.WriteString(e.URL)
		b.WriteString(")")
	}
	if e.Code != "" {
		b.WriteString(": ")
		b.WriteString(e.Code)
		if e.Description != "" {
			b.WriteString(": ")
			b.WriteString(e.Description)
		}
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(strings.TrimPrefix(e.Err.Error(), "oauthclient: "))
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// fail builds an *Error; an *Error err is returned as is, so the innermost
// step names the failure.
func fail(op, url string, err error) error {
	if _, ok := errors.AsType[*Error](err); ok {
		return err
	}
	return &Error{Op: op, URL: url, Err: err}
}
