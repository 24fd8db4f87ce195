package fastmcp

import (
	"github.com/fastmcp-go/fastmcp/session"
)

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
