package oauthserver

import (
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// registration is an RFC 7591 registration request.
type registration struct {
	RedirectURIs            []string `json:"redirect_uris"`
	ClientName              string   `json:"client_name,omitempty"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
}

// unsafeSchemes are never redirect URIs: a browser sent there runs or
// reads something instead of handing the code to an app.
var unsafeSchemes = map[string]bool{"javascript": true, "data": true, "vbscript": true, "file": true, "blob": true, "about": true}

// registrationError writes an RFC 7591 §3.2.2 error.
func registrationError(w http.ResponseWriter, code, desc string) {
	writeJSON(w, http.StatusBadRequest, map[string]string{"error": code, "error_description": desc})
}

// check checks a registration request and fills in its defaults.
func (reg *registration) check() (code, desc string) {
	if len(reg.RedirectURIs) == 0 {
		return "invalid_redirect_uri", "redirect_uris is required"
	}
	for _, u := range reg.RedirectURIs {
		p, err := url.Parse(u)
		if err != nil || !p.IsAbs() || p.Fragment != "" || (p.Scheme == "http" && !isLoopback(p.Hostname())) || unsafeSchemes[strings.ToLower(p.Scheme)] {
			return "invalid_redirect_uri", "each redirect URI must be an absolute URL without fragment: https, http on a loopback host, or an app's own scheme"
		}
	}
	switch reg.TokenEndpointAuthMethod {
	case "":
		reg.TokenEndpointAuthMethod = "client_secret_basic" // RFC 7591 §2
	case "none", "client_secret_basic", "client_secret_post":
	default:
		return "invalid_client_metadata", "token_endpoint_auth_method must be none, client_secret_basic or client_secret_post"
	}
	if len(reg.GrantTypes) == 0 {
		reg.GrantTypes = []string{"authorization_code"}
	}
	for _, g := range reg.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return "invalid_client_metadata", "grant_types may be authorization_code and refresh_token"
		}
	}
	for _, t := range reg.ResponseTypes {
		if t != "code" {
			return "invalid_client_metadata", "response_types may only be code"
		}
	}
	return "", ""
}

// register serves dynamic client registration (RFC 7591).
func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "invalid_request"})
		return
	}
	var reg registration
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&reg); err != nil {
		registrationError(w, "invalid_client_metadata", "the body must be a JSON object")
		return
	}
	if code, desc := reg.check(); code != "" {
		registrationError(w, code, desc)
		return
	}
	rec := clientRecord{
		ID: randomString(16), RedirectURIs: reg.RedirectURIs, Name: reg.ClientName,
		IssuedAt: s.cfg.now().Unix(),
	}
	secret := ""
	if reg.TokenEndpointAuthMethod != "none" {
		secret = randomString(32)
		h := sha256.Sum256([]byte(secret))
		rec.SecretHash = h[:]
	}
	b, err := json.Marshal(rec)
	if err == nil {
		err = s.kv.Set(r.Context(), keyClient+rec.ID, b, s.cfg.Registration.clientTTL())
	}
	if err != nil {
		s.cfg.Logger.Error("oauthserver: registering a client", "error", err)
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "server_error"})
		return
	}
	grants := []string{"authorization_code"}
	if s.cfg.RefreshTokenTTL > 0 {
		grants = append(grants, "refresh_token")
	}
	resp := map[string]any{
		"client_id": rec.ID, "client_id_issued_at": rec.IssuedAt, "redirect_uris": rec.RedirectURIs,
		"token_endpoint_auth_method": reg.TokenEndpointAuthMethod, "response_types": []string{"code"},
		"grant_types": slices.DeleteFunc(slices.Clone(reg.GrantTypes), func(g string) bool { return !slices.Contains(grants, g) }),
	}
	if reg.ClientName != "" {
		resp["client_name"] = reg.ClientName
	}
	if secret != "" {
		resp["client_secret"] = secret
		resp["client_secret_expires_at"] = 0
	}
	writeJSON(w, http.StatusCreated, resp)
}

// clientTTL is how long a registered client is kept (zero: for good).
func (p *RegistrationPolicy) clientTTL() time.Duration {
	if p == nil {
		return 0
	}
	return p.ClientTTL
}
