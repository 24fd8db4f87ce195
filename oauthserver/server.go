package oauthserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/ory/fosite"
	"github.com/ory/fosite/handler/oauth2"
	"github.com/ory/fosite/handler/pkce"

	"github.com/fastmcp-go/fastmcp/store"
)

// Server is an OAuth 2.1 authorization server for MCP: an http.Handler
// serving, under its issuer's path, the metadata (RFC 8414), the
// authorization, token, registration (RFC 7591), revocation (RFC 7009)
// and introspection (RFC 7662) endpoints, the key set, and the pages of
// the browser flow (the Login's, then consent). It is safe for concurrent
// use; servers sharing a Store act as one.
type Server struct {
	cfg      Config
	issuer   *url.URL
	base     string // the issuer's path, without a trailing slash
	kv       store.KV
	clients  *clients
	storage  *storage
	keys     *keyRing
	provider *fosite.Fosite
	routes   map[string]http.Handler // path → handler, as Protect serves them too
	mux      *http.ServeMux
}

// New returns the authorization server cfg describes, or an error (matching
// ErrConfig) naming the field to fix. It does no I/O: the signing key is
// created (or loaded from the Store) by the first request that needs it.
func New(cfg Config) (*Server, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if c.Store == nil {
		c.Store = store.NewMemoryKV()
	}
	issuer, _ := url.Parse(c.Issuer)
	s := &Server{cfg: c, issuer: issuer, base: strings.TrimSuffix(issuer.Path, "/"), kv: c.Store}
	s.clients = newClients(&s.cfg, s.kv)
	s.storage = &storage{kv: s.kv, clients: s.clients, cfg: &s.cfg}
	s.keys = &keyRing{kv: s.kv, period: c.KeyRotation, now: c.now}
	s.provider = s.newProvider()
	s.routes = s.newRoutes()
	s.mux = http.NewServeMux()
	for p, h := range s.routes {
		s.mux.Handle(p, h)
	}
	return s, nil
}

// newProvider wires fosite: the authorization code grant with PKCE (S256
// only), refresh tokens, revocation and introspection, over the store.
func (s *Server) newProvider() *fosite.Fosite {
	c := &s.cfg
	scopes := func(haystack []string, needle string) bool {
		return len(c.Scopes) == 0 || fosite.ExactScopeStrategy(haystack, needle)
	}
	fc := &fosite.Config{
		AccessTokenLifespan:            c.AccessTokenTTL,
		RefreshTokenLifespan:           c.RefreshTokenTTL,
		AuthorizeCodeLifespan:          c.CodeTTL,
		EnforcePKCE:                    true,
		EnablePKCEPlainChallengeMethod: false,
		ScopeStrategy:                  scopes,
		AudienceMatchingStrategy:       fosite.ExactAudienceMatchingStrategy,
		RefreshTokenScopes:             []string{},
		TokenURL:                       c.Issuer + "/token",
		ClientSecretsHasher:            secretHasher{},
		AccessTokenIssuer:              c.Issuer,
		OmitRedirectScopeParam:         true,
	}
	at := &accessStrategy{issuer: c.Issuer, keys: s.keys}
	rt := refreshStrategy{opaqueStrategy{prefix: "mcp_rt_", kind: fosite.RefreshToken, lifespan: c.RefreshTokenTTL}}
	code := codeStrategy{opaqueStrategy{prefix: "mcp_code_", kind: fosite.AuthorizeCode, lifespan: c.CodeTTL}}
	explicit := &oauth2.AuthorizeExplicitGrantHandler{
		AccessTokenStrategy: at, RefreshTokenStrategy: rt, AuthorizeCodeStrategy: code,
		CoreStorage: s.storage, TokenRevocationStorage: s.storage, Config: fc,
	}
	refresh := &oauth2.RefreshTokenGrantHandler{
		AccessTokenStrategy: at, RefreshTokenStrategy: rt, TokenRevocationStorage: s.storage, Config: fc,
	}
	pk := &pkce.Handler{AuthorizeCodeStrategy: code, Storage: s.storage, Config: fc}
	core := struct {
		oauth2.AccessTokenStrategy
		oauth2.RefreshTokenStrategy
		oauth2.AuthorizeCodeStrategy
	}{at, rt, code}
	fc.AuthorizeEndpointHandlers = fosite.AuthorizeEndpointHandlers{explicit, pk}
	fc.TokenEndpointHandlers = fosite.TokenEndpointHandlers{explicit, refresh, pk}
	fc.TokenIntrospectionHandlers = fosite.TokenIntrospectionHandlers{
		&oauth2.CoreValidator{CoreStrategy: core, CoreStorage: s.storage, Config: fc},
	}
	fc.RevocationHandlers = fosite.RevocationHandlers{
		&oauth2.TokenRevocationHandler{TokenRevocationStorage: s.storage, AccessTokenStrategy: at, RefreshTokenStrategy: rt},
	}
	return fosite.NewOAuth2Provider(s.storage, fc)
}

// The endpoints' paths under the issuer's.
const (
	pathAuthorize  = "/authorize"
	pathResume     = "/authorize/resume"
	pathConsent    = "/authorize/consent"
	pathToken      = "/token"
	pathRegister   = "/register"
	pathRevoke     = "/revoke"
	pathIntrospect = "/introspect"
	pathJWKS       = "/jwks.json"
	wellKnown      = "/.well-known/oauth-authorization-server"
)

// newRoutes is every handler the server serves, by path.
func (s *Server) newRoutes() map[string]http.Handler {
	r := map[string]http.Handler{
		s.base + pathAuthorize:  http.HandlerFunc(s.authorize),
		s.base + pathResume:     http.HandlerFunc(s.resume),
		s.base + pathConsent:    http.HandlerFunc(s.consent),
		s.base + pathToken:      cors(s.token),
		s.base + pathRevoke:     cors(s.revoke),
		s.base + pathIntrospect: http.HandlerFunc(s.introspect),
		s.base + pathJWKS:       cors(s.jwks),
		wellKnown + s.base:      cors(s.metadata), // RFC 8414 §3
	}
	if s.base != "" {
		r[s.base+wellKnown] = cors(s.metadata) // where some clients look
	}
	if s.registrationOn() {
		r[s.base+pathRegister] = cors(s.register)
	}
	if lr, ok := s.cfg.Login.(LoginRoutes); ok {
		for p, h := range lr.Routes() {
			r[p] = h
		}
	}
	return r
}

func (s *Server) registrationOn() bool {
	return s.cfg.Registration == nil || !s.cfg.Registration.Off
}

// ServeHTTP serves the endpoints and pages.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

// Issuer returns the server's issuer identifier.
func (s *Server) Issuer() string { return s.cfg.Issuer }

// Metadata returns the server's metadata document (RFC 8414), as served.
func (s *Server) Metadata() map[string]any {
	iss := s.cfg.Issuer
	m := map[string]any{
		"issuer":                                         iss,
		"authorization_endpoint":                         iss + pathAuthorize,
		"token_endpoint":                                 iss + pathToken,
		"revocation_endpoint":                            iss + pathRevoke,
		"introspection_endpoint":                         iss + pathIntrospect,
		"jwks_uri":                                       iss + pathJWKS,
		"response_types_supported":                       []string{"code"},
		"response_modes_supported":                       []string{"query"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          []string{"none", "client_secret_basic", "client_secret_post"},
		"revocation_endpoint_auth_methods_supported":     []string{"none", "client_secret_basic", "client_secret_post"},
		"introspection_endpoint_auth_methods_supported":  []string{"client_secret_basic", "client_secret_post"},
		"authorization_response_iss_parameter_supported": true,
		"client_id_metadata_document_supported":          !s.cfg.NoClientIDMetadata,
	}
	if s.registrationOn() {
		m["registration_endpoint"] = iss + pathRegister
	}
	if len(s.cfg.Scopes) > 0 {
		m["scopes_supported"] = s.cfg.Scopes
	}
	if !s.cfg.NoDPoP {
		m["dpop_signing_alg_values_supported"] = dpopAlgs
	}
	return m
}

// cors lets browser-based clients (the MCP Inspector) call h from any
// origin: the endpoints it wraps take no cookies, only what the request
// carries, and it answers preflights.
func cors(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST")
			w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type, DPoP")
			w.Header().Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h(w, r)
	})
}

func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.Metadata())
}

func (s *Server) jwks(w http.ResponseWriter, r *http.Request) {
	keys, err := s.keys.published(r.Context())
	if err != nil {
		s.cfg.Logger.Error("oauthserver: the key set", "error", err)
		http.Error(w, "the key set is unavailable", http.StatusServiceUnavailable)
		return
	}
	set := struct {
		Keys []jwk `json:"keys"`
	}{}
	for _, k := range keys {
		set.Keys = append(set.Keys, publicJWK(k))
	}
	w.Header().Set("Cache-Control", "max-age=300")
	writeJSON(w, http.StatusOK, set)
}

// writeJSON writes v as a JSON answer that is never cached.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, fmt.Sprintf("encoding the answer: %v", err), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if w.Header().Get("Cache-Control") == "" {
		w.Header().Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
