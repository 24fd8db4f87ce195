package oauthclient

import (
	"net/http"
	"strings"

	"github.com/fastmcp-go/fastmcp/internal/wwwauth"
)

// Challenge is one WWW-Authenticate challenge of a resource server's 401 or
// 403 answer (RFC 9110 §11.6.1, RFC 6750 §3, RFC 9728 §5.1).
type Challenge struct {
	// Scheme is the authentication scheme, such as "Bearer" or "DPoP".
	Scheme string
	// Params holds the auth-params, names in lower case.
	Params map[string]string
}

// Error is the challenge's error parameter, such as "invalid_token" or
// "insufficient_scope".
func (c Challenge) Error() string { return c.Params["error"] }

// Scopes are the scopes of the challenge's scope parameter.
func (c Challenge) Scopes() []string { return strings.Fields(c.Params["scope"]) }

// ResourceMetadata is the URL of the protected resource metadata the
// challenge names (resource_metadata), or "".
func (c Challenge) ResourceMetadata() string { return c.Params["resource_metadata"] }

// ParseChallenges parses every challenge in the WWW-Authenticate fields of
// h. Malformed parts are skipped: a challenge is advice, and what could be
// read of it is still useful.
func ParseChallenges(h http.Header) []Challenge {
	var out []Challenge
	for _, c := range wwwauth.Parse(h) {
		out = append(out, Challenge{Scheme: c.Scheme, Params: c.Params})
	}
	return out
}

// bearerChallenge returns the challenge of the scheme the client uses
// (Bearer, or DPoP when dpop), or the first one, or a zero Challenge.
func bearerChallenge(h http.Header, dpop bool) Challenge {
	cs := ParseChallenges(h)
	want := "bearer"
	if dpop {
		want = "dpop"
	}
	for _, c := range cs {
		if strings.EqualFold(c.Scheme, want) {
			return c
		}
	}
	if len(cs) > 0 {
		return cs[0]
	}
	return Challenge{Params: map[string]string{}}
}
