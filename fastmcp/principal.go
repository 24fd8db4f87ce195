package fastmcp

import (
	"crypto/sha256"
	"encoding/base64"

	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// defaultPrincipal digests the Authorization header of an HTTP request, so a
// requestState sealed for one bearer of credentials does not open for
// another. Requests without credentials share the empty principal.
func defaultPrincipal(req *session.Request) string {
	info, ok := req.Extra.(*transport.HTTPRequestInfo)
	if !ok {
		return ""
	}
	auth := info.Header.Get("Authorization")
	if auth == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(auth))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}
