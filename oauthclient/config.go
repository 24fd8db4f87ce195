package oauthclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"
)

// Config says how a client authorizes with the MCP server's authorization
// server. The zero value works for a server whose authorization server
// supports dynamic client registration, except that OpenURL must be set for
// the authorization code grant (the user's login).
type Config struct {
	// ClientName is the client's name, sent when it registers dynamically
	// (RFC 7591 client_name). Default "fastmcp client".
	ClientName string
	// RedirectURL is where the authorization server sends the user's
	// browser back: an http URL on a loopback host (127.0.0.1, [::1] or
	// localhost), whose port may be 0 (a free port is chosen for each
	// authorization). The Transport listens there while it waits for the
	// authorization response. Default "http://127.0.0.1:0/callback".
	RedirectURL string
	// Scopes are asked for in addition to the ones the server names (in
	// its WWW-Authenticate challenge, else its resource metadata).
	Scopes []string
	// Store keeps tokens and registrations between runs. Default: in
	// memory (NewMemoryStore).
	Store TokenStore
	// OpenURL sends the user to the authorization page at authURL, by
	// opening a browser (OpenBrowser) or printing it; it returns once the
	// page is on its way, and the Transport then waits (bounded by the
	// request's context) for the browser to come back to RedirectURL. Nil
	// makes a needed authorization code grant fail with ErrNoBrowser.
	OpenURL func(ctx context.Context, authURL string) error
	// ClientMetadataURL is the https URL of the client's ID metadata
	// document (SEP-991), used as its client_id with authorization servers
	// that advertise client_id_metadata_document_supported.
	ClientMetadataURL string
	// Client holds pre-registered credentials, used with authorization
	// servers that do not accept ClientMetadataURL. Nil means register
	// dynamically (RFC 7591) when the authorization server allows it.
	Client *Registration
	// NoConsentPrompt leaves prompt=consent out of authorization requests.
	// By default a request that asks an OpenID provider (its metadata says
	// so) for offline_access carries prompt=consent, as OpenID Connect Core
	// §11 requires for the refresh token: without it a provider such as
	// node-oidc-provider drops offline_access and issues no refresh token.
	// The user then sees the consent screen at every authorization; set
	// this where consent cannot be given per user (a Microsoft Entra tenant
	// that allows admin consent only) or the provider issues refresh tokens
	// without it.
	NoConsentPrompt bool
	// DPoP binds tokens to a key of the client's (RFC 9449) when the
	// authorization server accepts DPoP proofs signed with ES256: every
	// token request and every request with a DPoP token carries a fresh
	// proof, with the nonce the server asked for. The key lives in memory
	// only, so a restarted client does not reuse stored DPoP tokens.
	DPoP bool
	// Grant, when set, gets tokens without the user (ClientCredentials,
	// JWTBearer, EnterpriseManaged) instead of the authorization code
	// grant; it needs Client.
	Grant Grant
	// HTTPClient sends the requests to authorization servers and fetches
	// metadata (wrapped so that redirects never leave the host). Default:
	// a client with a 30 s timeout.
	HTTPClient *http.Client
	// MaxAuthorizations bounds how many times one request may send the
	// user to authorize (a first login, then step-ups for more scope)
	// before it fails with ErrRetryLimit. Default 3.
	MaxAuthorizations int
	// Logger receives diagnostics (never tokens or secrets). Default:
	// slog.Default().
	Logger *slog.Logger
}

// defaultRedirect is Config.RedirectURL's default.
const defaultRedirect = "http://127.0.0.1:0/callback"

// Transport is an http.RoundTripper that authorizes the requests it sends
// to one MCP server (OAuth 2.1 as the MCP authorization specification
// profiles it). It adds the access token to every request; on 401 it
// refreshes the token once, else discovers the server's authorization
// server and obtains a new one (registering the client and sending the
// user to log in as needed); on 403 insufficient_scope it authorizes again
// with the scopes the server asks for; then it resends the request. Calls
// that fail at the same time share one refresh or authorization. When no
// token can be had, the request fails with an *Error.
//
// A Transport is safe for concurrent use.
type Transport struct {
	server *url.URL
	key    string
	cfg    Config
	base   http.RoundTripper
	http   *http.Client // to authorization servers, redirects only within a host
	logger *slog.Logger

	dpop   *dpop         // the DPoP key, when Config.DPoP
	lock   chan struct{} // held while the record changes
	loaded bool
	rec    *Record
	as     *serverMetadata // the metadata of rec.Issuer, once discovered
}

// Transport returns the Transport New makes for the MCP server at
// serverURL, sending with base: it makes Config a client.HTTPAuthorizer,
// so that client.OAuth(oauthclient.Config{...}) authorizes a client. hc
// and logger fill HTTPClient and Logger when they are not set.
func (c Config) Transport(serverURL string, base http.RoundTripper, hc *http.Client, logger *slog.Logger) (http.RoundTripper, error) {
	if c.HTTPClient == nil {
		c.HTTPClient = hc
	}
	if c.Logger == nil {
		c.Logger = logger
	}
	t, err := New(serverURL, c, base)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// New returns a Transport for the MCP server at serverURL that sends
// requests with base (nil means http.DefaultTransport). It fails on a
// configuration that cannot work, saying what to change.
func New(serverURL string, cfg Config, base http.RoundTripper) (*Transport, error) {
	u, err := url.Parse(serverURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("oauthclient: server URL %q must be an absolute http(s) URL", serverURL)
	}
	u.Fragment = ""
	if cfg.RedirectURL == "" {
		cfg.RedirectURL = defaultRedirect
	}
	if _, err := parseRedirect(cfg.RedirectURL); err != nil {
		return nil, err
	}
	if cfg.ClientMetadataURL != "" {
		if m, err := url.Parse(cfg.ClientMetadataURL); err != nil || m.Scheme != "https" || m.Path == "" || m.Path == "/" {
			return nil, fmt.Errorf("oauthclient: ClientMetadataURL %q must be an https URL with a path (SEP-991)", cfg.ClientMetadataURL)
		}
	}
	if cfg.Client != nil && cfg.Client.ClientID == "" {
		return nil, errors.New("oauthclient: Config.Client has no ClientID; leave Client nil to register dynamically")
	}
	if cfg.Grant != nil && cfg.Client == nil {
		return nil, errors.New("oauthclient: Config.Grant needs Config.Client, the credentials the client authenticates with")
	}
	if cfg.Client != nil && cfg.Client.PrivateKey != nil {
		if _, err := signingAlgorithm(cfg.Client.PrivateKey); err != nil {
			return nil, err
		}
	}
	if cfg.ClientName == "" {
		cfg.ClientName = "fastmcp client"
	}
	if cfg.Store == nil {
		cfg.Store = NewMemoryStore()
	}
	if cfg.MaxAuthorizations <= 0 {
		cfg.MaxAuthorizations = 3
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	if base == nil {
		base = http.DefaultTransport
	}
	var dp *dpop
	if cfg.DPoP {
		if dp, err = newDPoP(); err != nil {
			return nil, err
		}
	}
	return &Transport{
		dpop:   dp,
		server: u,
		key:    u.String(),
		cfg:    cfg,
		base:   base,
		http:   guarded(hc),
		logger: cfg.Logger,
		lock:   make(chan struct{}, 1),
	}, nil
}

// parseRedirect checks a redirect URL the Transport can listen on.
func parseRedirect(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" || !isLoopback(u.Hostname()) || u.Fragment != "" {
		return nil, fmt.Errorf("oauthclient: RedirectURL %q must be an http URL on a loopback host, such as %s", raw, defaultRedirect)
	}
	return u, nil
}

// CloseIdleConnections closes the idle connections of the base transport
// (http.Client.CloseIdleConnections calls it).
func (t *Transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
