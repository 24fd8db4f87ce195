package oauthclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// maxDocument bounds every metadata, registration and token answer read.
const maxDocument = 1 << 20

// errNotFound is a metadata URL that answered 4xx: the next candidate is
// tried.
var errNotFound = errors.New("oauthclient: not found")

// checkEndpoint refuses a URL that is neither https nor http on a loopback
// host (OAuth 2.1 §1.5, RFC 8252 §7.3), or that carries a fragment.
func checkEndpoint(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("oauthclient: endpoint %q: %w", raw, err)
	}
	if u.Host == "" || u.Fragment != "" || (u.Scheme != "https" && (u.Scheme != "http" || !isLoopback(u.Hostname()))) {
		return nil, fmt.Errorf("%w: %q", ErrInsecureURL, raw)
	}
	return u, nil
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// guarded returns a client like c that follows redirects only to the same
// scheme and host (at most 5), so a metadata URL cannot bounce the client
// to another host (SSRF).
func guarded(c *http.Client) *http.Client {
	g := *c
	g.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("oauthclient: too many redirects")
		}
		if req.URL.Scheme != via[0].URL.Scheme || req.URL.Host != via[0].URL.Host {
			return fmt.Errorf("oauthclient: refusing redirect from %s to another host (%s)", via[0].URL.Host, req.URL.Host)
		}
		return nil
	}
	return &g
}

// getJSON fetches raw (which must pass checkEndpoint) and decodes its JSON
// body into v. A 4xx answer is errNotFound.
func getJSON(ctx context.Context, c *http.Client, raw string, v any) error {
	if _, err := checkEndpoint(raw); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return fmt.Errorf("%w: HTTP %d", errNotFound, resp.StatusCode)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("oauthclient: HTTP %d", resp.StatusCode)
	}
	return decodeJSON(resp.Body, v)
}

// decodeJSON decodes at most maxDocument bytes of JSON from r into v.
func decodeJSON(r io.Reader, v any) error {
	data, err := io.ReadAll(io.LimitReader(r, maxDocument+1))
	if err != nil {
		return fmt.Errorf("oauthclient: reading: %w", err)
	}
	if len(data) > maxDocument {
		return fmt.Errorf("oauthclient: document over %d bytes", maxDocument)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("oauthclient: decoding JSON: %w", err)
	}
	return nil
}
