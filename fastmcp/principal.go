package fastmcp

import (
	"net/http"

	"github.com/fastmcp-go/fastmcp/session"
)

// HTTPPrincipal sets how the HTTP transports identify the caller of a
// request. Legacy sessions are bound to the caller that created them: a
// request for a session with another principal gets 404, as if the session
// did not exist. The same principal seals the requestState of multi
// round-trip requests (protocol 2026-07-28), unless RequestStatePrincipal
// says otherwise. Default: with the Auth option, authinfo.PrincipalFromRequest
// (the verified token's issuer, subject and client, so a client keeps its
// session when it refreshes its token); without it,
// transport.DefaultPrincipal, a digest of the Authorization header
// (requests without one share the empty principal).
func HTTPPrincipal(fn func(*http.Request) string) Option {
	return serverOption(func(c *serverConfig) { c.httpPrincipal = fn })
}

// defaultPrincipal is the principal the HTTP transport computed for the
// request (see HTTPPrincipal), so a requestState sealed for one caller
// does not open for another. Requests that did not come over HTTP have
// the empty principal.
func defaultPrincipal(req *session.Request) string {
	if req.HTTP == nil {
		return ""
	}
	return req.HTTP.Principal
}
