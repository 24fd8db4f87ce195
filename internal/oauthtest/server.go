package oauthtest

import (
	"context"
	"crypto"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// DefaultSubject is the subject of the tokens a Server issues when
// Options.Subject is empty and the authorization request names no
// login_hint.
const DefaultSubject = "interop-user"

// Options configures a Server. The zero value works: ES256 keys, subject
// DefaultSubject, any scope granted, tokens valid for an hour.
type Options struct {
	// Subject is the "sub" of the tokens issued (the user who approves
	// every request), unless the authorization request names another in
	// login_hint. Empty means DefaultSubject.
	Subject string
	// Algorithm is the signature algorithm of the access tokens: "ES256"
	// (the default) or "RS256".
	Algorithm string
	// ScopesSupported are the scopes the server knows, published in its
	// metadata; a request for another scope is refused with invalid_scope.
	// Nil means any scope is accepted (and none is published).
	ScopesSupported []string
	// DefaultScopes are granted when the authorization request names none.
	DefaultScopes []string
	// UserScopes, when not nil, are the only scopes the user grants: the
	// others requested are left out of the token (a request that gets
	// none of them is still approved, with no scope).
	UserScopes []string
	// TokenLifetime is how long access tokens are valid. Zero means an
	// hour.
	TokenLifetime time.Duration
	// Path makes the issuer identifier a URL with a path (such as
	// "/tenant1", as multi-tenant providers have): the endpoints are served
	// under it, and the metadata at the path-aware locations of RFC 8414
	// §3.1 (/.well-known/oauth-authorization-server/tenant1) and of OpenID
	// Connect (/.well-known/openid-configuration/tenant1 and
	// /tenant1/.well-known/openid-configuration) instead of the root ones.
	// It starts with "/" and does not end with one. Empty means no path.
	Path string
	// AuthMethods are the token endpoint authentication methods the
	// server accepts, published as token_endpoint_auth_methods_supported:
	// some of "none", "client_secret_basic", "client_secret_post" and
	// "private_key_jwt" (RFC 7523 §2.2: only for clients registered with
	// Register and a PublicKey). Registering a client with another method
	// is refused with invalid_client_metadata. Nil means the first three.
	AuthMethods []string
	// DPoP makes the server support DPoP (RFC 9449): it publishes
	// dpop_signing_alg_values_supported, and a token request with a valid
	// DPoP proof gets an access token bound to the proof's key (token_type
	// DPoP, claim cnf.jkt); one with an invalid proof gets
	// invalid_dpop_proof. Requests without a proof get Bearer tokens.
	DPoP bool
	// DPoPNonce, with DPoP, is the nonce token requests' proofs must
	// carry: a proof without it gets use_dpop_nonce and the nonce in the
	// DPoP-Nonce header (RFC 9449 §8). Empty means no nonce.
	DPoPNonce string
	// Assertions, when set, makes the server accept the JWT bearer grant
	// (RFC 7523 §2.1, grant type JWTBearerGrant) from clients registered
	// for it: it is called with each assertion and returns the subject
	// the token is for, or an error, answered as invalid_grant. Nil means
	// the grant is not supported.
	Assertions func(assertion string) (subject string, err error)
}

// JWTBearerGrant is the grant type of the JWT bearer grant (RFC 7523).
const JWTBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"

// Server is the authorization server. It is an http.Handler; its URL
// (the issuer identifier) is set by Start, or by SetBaseURL when it is
// mounted elsewhere. It is safe for concurrent use.
type Server struct {
	opts  Options
	keys  *keys
	mux   *http.ServeMux
	codes *store[*grant] // authorization code → grant, single use
	fresh *store[*grant] // refresh token → grant, single use (rotated)

	mu      sync.Mutex
	issuer  string
	clients map[string]*Client
	// requests is the log Requests reads; issued and revoked are the
	// access tokens' IDs, for RevokeAccessTokens and Check.
	requests []Request
	issued   map[string]bool
	revoked  map[string]bool

	deny       atomic.Bool  // SetDeny
	authorized atomic.Int64 // Authorizations

	srv       *http.Server
	served    chan error
	closeOnce sync.Once
}

// SetDeny makes the user decline every authorization request from now on
// (deny true), or approve them again (false): a declined request is sent
// back to the client with error access_denied.
func (s *Server) SetDeny(deny bool) { s.deny.Store(deny) }

// Authorizations returns how many authorization requests the server has
// approved (each with a code), for tests that count how often a client
// sent its user to the authorization page.
func (s *Server) Authorizations() int { return int(s.authorized.Load()) }

// New returns a Server with a freshly generated signing key. It does not
// listen: call Start, or mount it and call SetBaseURL.
func New(opts Options) (*Server, error) {
	if opts.Subject == "" {
		opts.Subject = DefaultSubject
	}
	if opts.Algorithm == "" {
		opts.Algorithm = "ES256"
	}
	if opts.TokenLifetime == 0 {
		opts.TokenLifetime = time.Hour
	}
	if p := opts.Path; p != "" && (!strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") || strings.ContainsAny(p, "?#{} ")) {
		return nil, fmt.Errorf("oauthtest: Options.Path %q must start with / and not end with one, like /tenant1", p)
	}
	if opts.AuthMethods == nil {
		opts.AuthMethods = authMethods[:3]
	}
	for _, m := range opts.AuthMethods {
		if !slices.Contains(authMethods, m) {
			return nil, fmt.Errorf("oauthtest: Options.AuthMethods: %q is not supported (%s)", m, strings.Join(authMethods, ", "))
		}
	}
	k, err := newKeys(opts.Algorithm)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, keys: k, codes: newStore[*grant](), fresh: newStore[*grant](), clients: map[string]*Client{}, issued: map[string]bool{}, revoked: map[string]bool{}}
	p := opts.Path
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /.well-known/oauth-authorization-server"+p, s.serveMetadata)
	s.mux.HandleFunc("GET /.well-known/openid-configuration"+p, s.serveOpenIDConfiguration)
	if p != "" {
		s.mux.HandleFunc("GET "+p+"/.well-known/openid-configuration", s.serveOpenIDConfiguration)
	}
	s.mux.HandleFunc("GET "+p+"/jwks", s.serveJWKS)
	s.mux.HandleFunc("POST "+p+"/register", s.serveRegister)
	s.mux.HandleFunc("GET "+p+"/authorize", s.serveAuthorize)
	s.mux.HandleFunc("POST "+p+"/token", s.serveToken)
	return s, nil
}

// NewServer starts a Server on 127.0.0.1 for the test and closes it when
// the test ends. It fails the test when the server cannot start.
func NewServer(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s, err := New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.Start(""); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// Start listens on addr (host:port; empty means 127.0.0.1 on a free port)
// and serves in the background until Close. The issuer becomes
// http://HOST:PORT of the listener, followed by Options.Path. Call it
// once, before the Server is used.
func (s *Server) Start(addr string) error {
	if s.srv != nil {
		return errors.New("oauthtest: Start called twice")
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("oauthtest: %w", err)
	}
	s.SetBaseURL("http://" + ln.Addr().String())
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.served = make(chan error, 1)
	go func() { s.served <- s.srv.Serve(ln) }()
	return nil
}

// Close stops the server Start started and waits for it to stop. Calls
// after the first return nil.
func (s *Server) Close() error {
	if s.srv == nil {
		return nil
	}
	var err error
	s.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err = s.srv.Shutdown(ctx)
		if serr := <-s.served; !errors.Is(serr, http.ErrServerClosed) {
			err = errors.Join(err, serr)
		}
	})
	return err
}

// SetBaseURL sets the URL the server is reached at (scheme and host, no
// trailing slash), for a Server mounted in another http.Server instead of
// started with Start. The issuer is that URL followed by Options.Path.
func (s *Server) SetBaseURL(base string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.issuer = base + s.opts.Path
}

// URL returns the issuer identifier, which the endpoints' URLs extend.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issuer
}

// ServeHTTP serves the authorization server's endpoints. Every answer is
// marked no-store.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	s.mux.ServeHTTP(w, r)
}

// Client is a registered client, as Clients reports it.
type Client struct {
	ID           string
	Secret       string // empty for a public client
	Name         string
	RedirectURIs []string
	// AuthMethod is the token endpoint authentication method:
	// "none", "client_secret_basic", "client_secret_post" or
	// "private_key_jwt".
	AuthMethod string
	// GrantTypes are some of "authorization_code", "refresh_token",
	// "client_credentials" (a confidential client acting for itself: the
	// tokens' subject is its ID) and JWTBearerGrant (with
	// Options.Assertions).
	GrantTypes []string
	// PublicKey verifies the client's private_key_jwt assertions.
	PublicKey crypto.PublicKey
	Scope     string
}

// Clients returns the clients registered so far.
func (s *Server) Clients() []Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Client, 0, len(s.clients))
	for _, c := range s.clients {
		out = append(out, *c)
	}
	return out
}

// Register registers a client directly, as an operator pre-registers
// one, and returns it with the defaults of dynamic registration filled
// in: an ID when c.ID is empty, a secret when AuthMethod (default
// client_secret_basic) is not "none" and c.Secret is empty, and the
// authorization_code grant. It returns an error for metadata /register
// would refuse, or an ID already registered.
func (s *Server) Register(c Client) (*Client, error) {
	reg, _, err := s.newClient(registration{RedirectURIs: c.RedirectURIs, AuthMethod: c.AuthMethod, GrantTypes: c.GrantTypes, Name: c.Name, Scope: c.Scope})
	if err != nil {
		return nil, fmt.Errorf("oauthtest: %w", err)
	}
	if (reg.AuthMethod == "private_key_jwt") != (c.PublicKey != nil) {
		return nil, errors.New("oauthtest: a PublicKey goes with AuthMethod private_key_jwt, and only with it")
	}
	reg.PublicKey = c.PublicKey
	if c.ID != "" {
		reg.ID = c.ID
	}
	if c.Secret != "" && reg.AuthMethod != "none" {
		reg.Secret = c.Secret
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.clients[reg.ID]; dup {
		return nil, fmt.Errorf("oauthtest: client %q is already registered", reg.ID)
	}
	s.clients[reg.ID] = reg
	out := *reg
	return &out, nil
}

func (s *Server) client(id string) *Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clients[id]
}

// randomString returns n random bytes, base64url-encoded.
func randomString(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
