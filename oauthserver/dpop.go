package oauthserver

import (
	"net/http"

	"github.com/ory/fosite"
)

// dpopAlgs are the DPoP proof algorithms accepted.
var dpopAlgs = []string{"ES256"}

// errDPoP is RFC 9449's error.
var errDPoP = &fosite.RFC6749Error{
	ErrorField: "invalid_dpop_proof", DescriptionField: "The DPoP proof is invalid.", CodeField: http.StatusBadRequest,
}

// checkDPoP checks the DPoP proof of a token request, if any, and returns
// its key's thumbprint.
func (s *Server) checkDPoP(r *http.Request) (string, error) {
	if len(r.Header.Values("DPoP")) == 0 {
		return "", nil
	}
	if s.cfg.NoDPoP {
		return "", errDPoP.WithHint("This server does not accept DPoP proofs.")
	}
	return "", errDPoP.WithHint("DPoP proofs are not checked yet.") // TODO(h32kv): internal/dpopproof
}
