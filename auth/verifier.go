package auth

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// TokenVerifier checks an access token presented to the protected
// resource. Verify returns the token's information when the token is valid
// for this resource, or an error wrapping ErrInvalidToken,
// ErrInsufficientScope or ErrUnavailable. req is the request that carried
// the token (verifiers may read its headers; they must not read its body).
// Verify is called concurrently from many requests.
type TokenVerifier interface {
	Verify(ctx context.Context, token string, req *http.Request) (*TokenInfo, error)
}

// VerifierFunc adapts a function to TokenVerifier, for custom token
// schemes (opaque API keys, a database lookup).
type VerifierFunc func(ctx context.Context, token string, req *http.Request) (*TokenInfo, error)

// Verify calls f.
func (f VerifierFunc) Verify(ctx context.Context, token string, req *http.Request) (*TokenInfo, error) {
	return f(ctx, token, req)
}

// checkServerURL checks that raw is an absolute https URL, or an http URL
// whose host is a loopback address or localhost (for development and
// tests); what names it (issuer, jwks_uri, ...) goes in errors.
func checkServerURL(what, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("auth: %s %q: %w", what, raw, err)
	}
	switch {
	case u.Scheme == "https" && u.Host != "":
	case u.Scheme == "http" && isLoopback(u.Hostname()):
	default:
		return nil, fmt.Errorf("auth: %s %q: must be an https URL (http only for a loopback host)", what, raw)
	}
	if u.Fragment != "" || u.RawQuery != "" {
		return nil, fmt.Errorf("auth: %s %q: must have no query or fragment", what, raw)
	}
	return u, nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkSubject refuses a token without a subject unless allowMissing, and
// even then one without a client, which it would stand for.
func checkSubject(info *TokenInfo, allowMissing bool) error {
	switch {
	case info.Subject != "":
		return nil
	case !allowMissing:
		return ErrNoSubject
	case info.ClientID == "":
		return fmt.Errorf("%w, nor client", ErrNoSubject)
	}
	return nil
}
