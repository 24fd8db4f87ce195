package oauthserver

import (
	"net/http"

	"github.com/ory/fosite"
)

// errDPoP is RFC 9449's error.
var errDPoP = &fosite.RFC6749Error{
	ErrorField: "invalid_dpop_proof", DescriptionField: "The DPoP proof is invalid.", CodeField: http.StatusBadRequest,
}

// checkDPoP checks the DPoP proof of a token request, if any, and returns
// its key's thumbprint. DPoP is not advertised yet (no
// dpop_signing_alg_values_supported), so clients send no proof; one that
// does is refused rather than given an unbound token.
func (s *Server) checkDPoP(r *http.Request) (string, error) {
	if len(r.Header.Values("DPoP")) == 0 {
		return "", nil
	}
	return "", errDPoP.WithHint("This server does not accept DPoP proofs.")
}
