package auth

import (
	"errors"
	"net/http"
	"strings"

	"github.com/fastmcp-go/fastmcp/authinfo"
)

// RFC 6750 §3.1 error codes.
const (
	errCodeInvalidRequest    = "invalid_request"
	errCodeInvalidToken      = "invalid_token"
	errCodeInsufficientScope = "insufficient_scope"
)

// InsufficientScopeChallenge returns the WWW-Authenticate value of a 403
// step-up answer (RFC 6750 §3.1, MCP's scope challenge): error
// "insufficient_scope", the scopes the operation needs, and the metadata
// URL, as in
//
//	Bearer error="insufficient_scope", scope="files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
//
// Name every scope the operation needs, not only the missing ones, so the
// client asks for all of them at once.
func InsufficientScopeChallenge(resourceMetadataURL string, scopes ...string) string {
	return authinfo.Challenge{Error: errCodeInsufficientScope, Scopes: scopes, ResourceMetadata: resourceMetadataURL}.String()
}

// WriteInsufficientScope answers w with 403 Forbidden and the challenge of
// InsufficientScopeChallenge. Handlers behind RequireBearerToken call it
// when an operation needs scopes the token lacks (see
// TokenInfo.MissingScopes).
func WriteInsufficientScope(w http.ResponseWriter, resourceMetadataURL string, scopes ...string) {
	w.Header().Set("WWW-Authenticate", InsufficientScopeChallenge(resourceMetadataURL, scopes...))
	http.Error(w, "insufficient scope", http.StatusForbidden)
}

var (
	errMalformedHeader = errors.New("malformed Authorization header")
	errMultipleHeaders = errors.New("more than one Authorization header")
)

// parseAuthorization reads the request's Authorization header (RFC 9110
// §11.6.2): the scheme, lowercased (schemes are case-insensitive), and the
// credentials, which must be one token68 (RFC 9110 §11.2), the syntax of
// RFC 6750's b64token. No header gives "", "", nil.
func parseAuthorization(h http.Header) (scheme, credentials string, err error) {
	values := h.Values("Authorization")
	switch len(values) {
	case 0:
		return "", "", nil
	case 1:
	default:
		return "", "", errMultipleHeaders
	}
	v := strings.Trim(values[0], " \t")
	scheme, rest, _ := strings.Cut(v, " ")
	if scheme == "" || !isToken(scheme) {
		return "", "", errMalformedHeader
	}
	credentials = strings.TrimLeft(rest, " ")
	if !isToken68(credentials) {
		return strings.ToLower(scheme), "", errMalformedHeader
	}
	return strings.ToLower(scheme), credentials, nil
}

// isToken reports whether s is an RFC 9110 token (tchar+).
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isAlnum(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return s != ""
}

// isToken68 reports whether s is 1*( ALPHA / DIGIT / "-" / "." / "_" /
// "~" / "+" / "/" ) *"=".
func isToken68(s string) bool {
	i := 0
	for i < len(s) && (isAlnum(s[i]) || strings.IndexByte("-._~+/", s[i]) >= 0) {
		i++
	}
	if i == 0 {
		return false
	}
	for i < len(s) && s[i] == '=' {
		i++
	}
	return i == len(s)
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
