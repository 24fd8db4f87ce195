package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/fastmcp-go/fastmcp/oauthclient"
)

// OAuthConfig says how ConnectHTTP authorizes with the server's OAuth
// authorization server: the client's name, its loopback redirect URL, the
// scopes it wants, where tokens are kept and how the user is sent to log
// in. See oauthclient.Config for every field and its default.
type OAuthConfig = oauthclient.Config

// OAuth makes ConnectHTTP authorize its requests with OAuth 2.1 as the MCP
// specification describes: the server's first 401 starts the flow
// (discovery, registration, the user's login through cfg.OpenURL, the
// token exchange), tokens are refreshed silently, and a TokenStore that
// outlives the process (FileTokenStore) lets a restarted client reuse
// them. A request that cannot be authorized fails with an error matching
// *oauthclient.Error (errors.As), at once: it is not re-issued
// (WithReissueLimit), and Connect does not fall back to the initialize
// handshake, so a user who declines is asked once. It wraps the transport of WithHTTPClient,
// if set.
func OAuth(cfg OAuthConfig) ClientOption {
	return clientOption(func(c *clientConfig) { c.oauth = &cfg })
}

// FileTokenStore returns a token store kept in the JSON file at path ("~/"
// is the home directory), written with mode 0600 and replaced atomically;
// see oauthclient.NewFileStore.
func FileTokenStore(path string) oauthclient.TokenStore { return oauthclient.NewFileStore(path) }

// OpenBrowser opens the authorization page in the user's browser; use it
// as OAuthConfig.OpenURL.
func OpenBrowser(ctx context.Context, authURL string) error {
	return oauthclient.OpenBrowser(ctx, authURL)
}

// oauthHTTPClient returns the HTTP client ConnectHTTP uses with OAuth
// configured, and a function that closes the idle connections of a
// transport it made itself (nil otherwise).
func (cfg *clientConfig) oauthHTTPClient(url string) (*http.Client, func(), error) {
	oc := *cfg.oauth
	if oc.Logger == nil {
		oc.Logger = cfg.logger
	}
	var base http.RoundTripper
	var closeIdle func()
	hc := &http.Client{}
	if cfg.httpClient != nil {
		*hc = *cfg.httpClient
		base = cfg.httpClient.Transport
	} else {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		base, closeIdle = t, t.CloseIdleConnections
	}
	if oc.HTTPClient == nil && cfg.httpClient != nil {
		// The authorization server is reached like the MCP server (TLS,
		// proxies), with a bound of its own.
		ac := *cfg.httpClient
		if ac.Timeout == 0 {
			ac.Timeout = 30 * time.Second
		}
		oc.HTTPClient = &ac
	}
	t, err := oauthclient.New(url, oc, base)
	if err != nil {
		return nil, nil, err
	}
	hc.Transport = t
	return hc, closeIdle, nil
}

// authFailed reports whether err is the OAuth transport's failure to
// authorize the request (an *oauthclient.Error: the user declined, the
// authorization server refused, the server kept refusing fresh tokens). It
// reaches the client wrapped in transport.ErrTransport, as any error of the
// HTTP client does, but it is final for the call: sending the request
// again, or falling back to the initialize handshake, would only send the
// user to log in again (issue 29).
func authFailed(err error) bool {
	_, ok := errors.AsType[*oauthclient.Error](err)
	return ok
}

// connectError is the error Connect returns for err: an authorization
// failure is said as one, without the transport's wrapping.
func connectError(err error) error {
	if oe, ok := errors.AsType[*oauthclient.Error](err); ok {
		return fmt.Errorf("fastmcp: connecting: not authorized: %w", oe)
	}
	return fmt.Errorf("fastmcp: connecting: %w", err)
}
