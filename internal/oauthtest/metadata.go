package oauthtest

import "net/http"

// metadata is the server's RFC 8414 metadata.
func (s *Server) metadata() map[string]any {
	iss := s.URL()
	m := map[string]any{
		"issuer":                                         iss,
		"authorization_endpoint":                         iss + "/authorize",
		"token_endpoint":                                 iss + "/token",
		"registration_endpoint":                          iss + "/register",
		"jwks_uri":                                       iss + "/jwks",
		"response_types_supported":                       []string{"code"},
		"response_modes_supported":                       []string{"query"},
		"grant_types_supported":                          s.grantTypes(),
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          s.opts.AuthMethods,
		"authorization_response_iss_parameter_supported": true,
	}
	if s.opts.DPoP {
		m["dpop_signing_alg_values_supported"] = dpopAlgs
	}
	if s.opts.ScopesSupported != nil {
		m["scopes_supported"] = s.opts.ScopesSupported
	}
	return m
}

func (s *Server) serveMetadata(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.metadata())
}

// serveOpenIDConfiguration serves the same metadata with the members
// OpenID Connect Discovery requires, for clients that look there first.
// The server issues no ID tokens.
func (s *Server) serveOpenIDConfiguration(w http.ResponseWriter, r *http.Request) {
	m := s.metadata()
	m["subject_types_supported"] = []string{"public"}
	m["id_token_signing_alg_values_supported"] = []string{s.opts.Algorithm}
	writeJSON(w, http.StatusOK, m)
}
