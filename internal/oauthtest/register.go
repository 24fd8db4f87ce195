package oauthtest

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// registration is the client metadata of RFC 7591 §2 the server reads;
// other members are echoed back unchanged.
type registration struct {
	RedirectURIs []string `json:"redirect_uris"`
	AuthMethod   string   `json:"token_endpoint_auth_method"`
	GrantTypes   []string `json:"grant_types"`
	Response     []string `json:"response_types"`
	Name         string   `json:"client_name"`
	Scope        string   `json:"scope"`
}

// serveRegister is dynamic client registration (RFC 7591).
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_client_metadata", "cannot read the request: "+err.Error())
		return
	}
	var all map[string]any
	var reg registration
	if err := json.Unmarshal(body, &all); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_client_metadata", "the body is not a JSON object: "+err.Error())
		return
	}
	s.record(Request{Endpoint: "register", Metadata: maps.Clone(all)})
	if err := json.Unmarshal(body, &reg); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_client_metadata", err.Error())
		return
	}
	if reg.AuthMethod == "private_key_jwt" {
		writeError(w, http.StatusBadRequest, "invalid_client_metadata", "private_key_jwt clients are registered by the operator (Server.Register with a PublicKey), not dynamically")
		return
	}
	c, code, err := s.newClient(reg)
	if err != nil {
		writeError(w, http.StatusBadRequest, code, err.Error())
		return
	}
	s.mu.Lock()
	s.clients[c.ID] = c
	s.mu.Unlock()

	all["client_id"] = c.ID
	all["client_id_issued_at"] = time.Now().Unix()
	all["token_endpoint_auth_method"] = c.AuthMethod
	all["grant_types"] = c.GrantTypes
	all["response_types"] = []string{"code"}
	if c.Secret != "" {
		all["client_secret"] = c.Secret
		all["client_secret_expires_at"] = 0
	}
	writeJSON(w, http.StatusCreated, all)
}

// authMethods are the token endpoint authentication methods the server
// implements.
var authMethods = []string{"none", "client_secret_basic", "client_secret_post", "private_key_jwt"}

// newClient checks reg and returns the client it registers, or the
// error code and why.
func (s *Server) newClient(reg registration) (*Client, string, error) {
	c := &Client{ID: randomString(12), Name: reg.Name, Scope: reg.Scope, AuthMethod: reg.AuthMethod, GrantTypes: reg.GrantTypes}
	if c.AuthMethod == "" {
		c.AuthMethod = "client_secret_basic" // RFC 7591 §2
	}
	if !slices.Contains(s.opts.AuthMethods, c.AuthMethod) {
		return nil, "invalid_client_metadata", fmt.Errorf("token_endpoint_auth_method %q is not supported (%s)", c.AuthMethod, strings.Join(s.opts.AuthMethods, ", "))
	}
	if c.AuthMethod != "none" && c.AuthMethod != "private_key_jwt" {
		c.Secret = randomString(24)
	}
	if len(c.GrantTypes) == 0 {
		c.GrantTypes = []string{"authorization_code"}
	}
	for _, g := range c.GrantTypes {
		if !slices.Contains(s.grantTypes(), g) {
			return nil, "invalid_client_metadata", fmt.Errorf("grant type %q is not supported (%s)", g, strings.Join(s.grantTypes(), ", "))
		}
		if g == "client_credentials" && c.AuthMethod == "none" {
			return nil, "invalid_client_metadata", fmt.Errorf("the client_credentials grant is for confidential clients, not token_endpoint_auth_method none")
		}
	}
	for _, rt := range reg.Response {
		if rt != "code" {
			return nil, "invalid_client_metadata", fmt.Errorf("response type %q is not supported (code)", rt)
		}
	}
	if slices.Contains(c.GrantTypes, "authorization_code") && len(reg.RedirectURIs) == 0 {
		return nil, "invalid_redirect_uri", fmt.Errorf("redirect_uris is required for the authorization_code grant")
	}
	for _, u := range reg.RedirectURIs {
		p, err := url.Parse(u)
		if err != nil || !p.IsAbs() || p.Fragment != "" {
			return nil, "invalid_redirect_uri", fmt.Errorf("redirect URI %q must be an absolute URL without a fragment", u)
		}
	}
	c.RedirectURIs = reg.RedirectURIs
	return c, "", nil
}

// grantTypes are the grant types the server supports.
func (s *Server) grantTypes() []string {
	g := []string{"authorization_code", "refresh_token", "client_credentials"}
	if s.opts.Assertions != nil {
		g = append(g, JWTBearerGrant)
	}
	return g
}
