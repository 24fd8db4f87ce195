package oauthserver

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
)

// The defaults of Config's durations.
const (
	DefaultAccessTokenTTL       = time.Hour
	DefaultRefreshTokenTTL      = 30 * 24 * time.Hour
	DefaultCodeTTL              = time.Minute
	DefaultKeyRotation          = 30 * 24 * time.Hour
	DefaultAuthorizationTimeout = 10 * time.Minute
)

// Config configures New. Issuer, Resources and Login are required; the
// zero value of every other field is a working default.
type Config struct {
	// Issuer is the server's issuer identifier (RFC 8414): an https URL,
	// or http on a loopback host (127.0.0.1, [::1], localhost), without
	// query or fragment. Its endpoints are served under its path
	// (Issuer + "/authorize", "/token", ...), and tokens carry it as "iss".
	// Required.
	Issuer string
	// Resources are the resources (RFC 8707) the server issues tokens
	// for: each the canonical URL of an MCP endpoint, such as
	// "https://mcp.example.com/mcp". A client's resource parameter must
	// be one of them exactly; the token's "aud" is it. A request without
	// one gets the only resource when there is one. Required.
	Resources []string
	// Login tells who the person at the browser is (DemoLogin, an
	// application's own login, or an OAuth proxy's upstream login).
	// Required.
	Login Login
	// Store keeps the server's state: clients, pending requests, codes,
	// grants, revocations and signing keys. Servers sharing one Store
	// behave as one (replicas behind a load balancer). Nil means a store
	// in this process's memory (everything is lost on restart).
	Store store.KV
	// Clients are registered beforehand: their IDs are never taken by
	// dynamic registration.
	Clients []Client
	// Registration sets dynamic client registration (RFC 7591): nil
	// means open registration at Issuer + "/register"; RegistrationOff
	// turns it off.
	Registration *RegistrationPolicy
	// NoClientIDMetadata turns off client ID metadata documents, on by
	// default: a client_id that is an https URL with a path names a JSON
	// document there with the client's metadata (its name, its redirect
	// URIs), which the server fetches on the client's first request
	// (at most 64 KiB, within 5 seconds, no redirect followed) and keeps
	// as its Cache-Control says, at most an hour. Such clients are public
	// (token_endpoint_auth_method none).
	NoClientIDMetadata bool
	// HTTPClient fetches client ID metadata documents. Nil means a client
	// that dials public addresses only (no loopback, private, link-local
	// or shared address, checked on the address dialled after DNS: a
	// client_id cannot make the server reach into its own network), uses
	// no proxy and follows no redirect. A client given here is used as it
	// is, except that it follows no redirect either.
	HTTPClient *http.Client
	// Scopes are the scopes clients may ask for (scopes_supported). Nil
	// accepts any scope.
	Scopes []string
	// AccessTokenTTL is how long access tokens are valid. Zero means
	// DefaultAccessTokenTTL.
	AccessTokenTTL time.Duration
	// RefreshTokenTTL is how long refresh tokens are valid. Zero means
	// DefaultRefreshTokenTTL; negative issues no refresh tokens.
	RefreshTokenTTL time.Duration
	// CodeTTL is how long an authorization code may wait for its
	// redemption. Zero means DefaultCodeTTL.
	CodeTTL time.Duration
	// AuthorizationTimeout is how long an authorization request waits for
	// the person to sign in and consent. Zero means
	// DefaultAuthorizationTimeout.
	AuthorizationTimeout time.Duration
	// KeyRotation is how long one signing key signs tokens before the
	// next takes over; a key stays published one period before it signs
	// and one after, so tokens it signed keep verifying until they
	// expire. It must exceed AccessTokenTTL. Zero means
	// DefaultKeyRotation.
	KeyRotation time.Duration
	// NoDPoP refuses DPoP proofs (RFC 9449) at the token endpoint. By
	// default a token request with a valid proof (ES256) gets tokens bound
	// to its key: token_type DPoP, "cnf.jkt" in the access token, and
	// refresh tokens that need a proof by the same key.
	NoDPoP bool
	// Logger receives why requests failed (never tokens or secrets). Nil
	// means slog.Default().
	Logger *slog.Logger

	// now is the clock; tests set it.
	now func() time.Time
}

// A Client is a client registered beforehand.
type Client struct {
	// ID is the client_id. Required.
	ID string
	// Secret makes a confidential client, which authenticates at the
	// token endpoint with client_secret_basic or client_secret_post. It
	// must be a random string of at least 32 characters. Empty: a public
	// client (token_endpoint_auth_method none), which must use PKCE as
	// every client does.
	Secret string
	// RedirectURIs are the client's redirect URIs, matched exactly (any
	// port for a loopback http URI, RFC 8252 §7.3). At least one.
	RedirectURIs []string
	// Name is shown on the consent page. Default: ID.
	Name string
	// Trusted skips the consent page: the application vouches for the
	// client (its own first-party app).
	Trusted bool
}

// RegistrationPolicy sets dynamic client registration.
type RegistrationPolicy struct {
	// Off refuses every registration.
	Off bool
	// ClientTTL is how long a registered client is kept after it
	// registered. Zero keeps it for good.
	ClientTTL time.Duration
}

// RegistrationOff is the policy that turns dynamic registration off.
var RegistrationOff = &RegistrationPolicy{Off: true}

// ErrConfig is matched by New's errors.
var ErrConfig = errors.New("oauthserver: invalid Config")

// configError returns an error naming field, matching ErrConfig.
func configError(field, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrConfig, field, fmt.Sprintf(format, args...))
}

// checkIssuer parses an issuer identifier.
func checkIssuer(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, configError("Issuer", "empty: set the server's URL, such as https://auth.example.com")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, configError("Issuer", "%v", err)
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && isLoopback(u.Hostname()):
	default:
		return nil, configError("Issuer", "%q: must be https, or http on a loopback host", raw)
	}
	if u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, configError("Issuer", "%q: needs a host, and no query, fragment or user", raw)
	}
	return u, nil
}

// isLoopback reports whether host is a loopback name or address.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// withDefaults checks c and fills in its defaults.
func (c Config) withDefaults() (Config, error) {
	if _, err := checkIssuer(c.Issuer); err != nil {
		return c, err
	}
	c.Issuer = strings.TrimSuffix(c.Issuer, "/")
	if len(c.Resources) == 0 {
		return c, configError("Resources", "empty: name the MCP endpoints tokens are for, such as https://mcp.example.com/mcp")
	}
	for _, r := range c.Resources {
		if u, err := url.Parse(r); err != nil || !u.IsAbs() || u.Fragment != "" {
			return c, configError("Resources", "%q is not an absolute URL without fragment", r)
		}
	}
	if c.Login == nil {
		return c, configError("Login", "nil: pass DemoLogin() to try it, or the application's Login")
	}
	c.AccessTokenTTL = orDefault(c.AccessTokenTTL, DefaultAccessTokenTTL)
	c.RefreshTokenTTL = orDefault(c.RefreshTokenTTL, DefaultRefreshTokenTTL)
	c.CodeTTL = orDefault(c.CodeTTL, DefaultCodeTTL)
	c.AuthorizationTimeout = orDefault(c.AuthorizationTimeout, DefaultAuthorizationTimeout)
	c.KeyRotation = orDefault(c.KeyRotation, DefaultKeyRotation)
	if c.AccessTokenTTL < 0 || c.CodeTTL < 0 || c.AuthorizationTimeout < 0 {
		return c, configError("AccessTokenTTL, CodeTTL, AuthorizationTimeout", "negative")
	}
	if c.KeyRotation <= c.AccessTokenTTL {
		return c, configError("KeyRotation", "%v must exceed AccessTokenTTL (%v), so that a key outlives its tokens", c.KeyRotation, c.AccessTokenTTL)
	}
	if err := checkClients(c.Clients); err != nil {
		return c, err
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c, nil
}

// checkClients checks the pre-registered clients.
func checkClients(clients []Client) error {
	seen := map[string]bool{}
	for i, cl := range clients {
		field := fmt.Sprintf("Clients[%d]", i)
		switch {
		case cl.ID == "":
			return configError(field, "empty ID")
		case seen[cl.ID]:
			return configError(field, "ID %q registered twice", cl.ID)
		case len(cl.RedirectURIs) == 0:
			return configError(field, "client %q has no RedirectURIs", cl.ID)
		case cl.Secret != "" && len(cl.Secret) < 32:
			return configError(field, "client %q: Secret shorter than 32 characters: use a random one", cl.ID)
		}
		for _, u := range cl.RedirectURIs {
			if p, err := url.Parse(u); err != nil || !p.IsAbs() || p.Fragment != "" {
				return configError(field, "client %q: redirect URI %q is not an absolute URL without fragment", cl.ID, u)
			}
		}
		seen[cl.ID] = true
	}
	return nil
}

// orDefault is d when v is zero, else v.
func orDefault(v, d time.Duration) time.Duration {
	if v == 0 {
		return d
	}
	return v
}
