package client

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// An HTTPAuthorizer authorizes the requests ConnectHTTP sends to an MCP
// server. oauthclient.Config is one: OAuth 2.1 as the MCP specification
// describes it. Package fastmcp names no authorization code, so a program
// that authorizes no requests links none.
type HTTPAuthorizer interface {
	// Transport returns the round tripper that sends requests to the MCP
	// server at serverURL through base, authorized. hc, when not nil, is
	// the HTTP client the program gave (WithHTTPClient), for reaching the
	// authorization server like the MCP server; logger is the client's.
	//
	// An error of the transport whose NotAuthorized method returns true is
	// final for the call: the client neither re-issues the request
	// (WithReissueLimit) nor, in Connect, falls back to the initialize
	// handshake, so that a user who declined is asked once.
	Transport(serverURL string, base http.RoundTripper, hc *http.Client, logger *slog.Logger) (http.RoundTripper, error)
}

// OAuth makes ConnectHTTP authorize its requests with a, such as an
// oauthclient.Config: with it, the server's first 401 starts the flow
// (discovery, registration, the user's login, the token exchange), tokens
// are refreshed silently, and a token store that outlives the process
// (oauthclient.NewFileStore) lets a restarted client reuse them. A request
// that cannot be authorized fails at once with the authorizer's error
// (errors.As with *oauthclient.Error). It wraps the transport of
// WithHTTPClient, if set.
func OAuth(a HTTPAuthorizer) Option {
	return option(func(c *config) { c.oauth = a })
}

// oauthHTTPClient returns the HTTP client ConnectHTTP uses with OAuth
// configured, and a function that closes the idle connections of a
// transport it made itself (nil otherwise).
func (cfg *config) oauthHTTPClient(url string) (*http.Client, func(), error) {
	var base http.RoundTripper
	var closeIdle func()
	hc := &http.Client{}
	var ac *http.Client
	if cfg.httpClient != nil {
		*hc = *cfg.httpClient
		base = cfg.httpClient.Transport
		// The authorization server is reached like the MCP server (TLS,
		// proxies), with a bound of its own.
		c := *cfg.httpClient
		if c.Timeout == 0 {
			c.Timeout = 30 * time.Second
		}
		ac = &c
	} else {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		base, closeIdle = t, t.CloseIdleConnections
	}
	t, err := cfg.oauth.Transport(url, base, ac, cfg.logger)
	if err != nil {
		return nil, nil, err
	}
	hc.Transport = t
	return hc, closeIdle, nil
}

// notAuthorized is an HTTPAuthorizer's error that says the request could
// not be authorized (see HTTPAuthorizer).
type notAuthorized interface {
	error
	NotAuthorized() bool
}

// authFailed reports whether err is the authorizer's failure to authorize
// the request (the user declined, the authorization server refused, the
// server kept refusing fresh tokens). It reaches the client wrapped in
// transport.ErrTransport, as any error of the HTTP client does, but it is
// final for the call: sending the request again, or falling back to the
// initialize handshake, would only send the user to log in again (issue 29).
func authFailed(err error) bool {
	na, ok := errors.AsType[notAuthorized](err)
	return ok && na.NotAuthorized()
}

// connectError is the error Connect returns for err: an authorization
// failure is said as one, without the transport's wrapping.
func connectError(err error) error {
	if na, ok := errors.AsType[notAuthorized](err); ok && na.NotAuthorized() {
		return fmt.Errorf("client: connecting: not authorized: %w", na)
	}
	return fmt.Errorf("client: connecting: %w", err)
}
