package oauthserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Client ID metadata documents (the MCP 2025-11-25 authorization spec,
// draft-ietf-oauth-client-id-metadata-document): a client_id that is an
// https URL names a JSON document, served there, with the client's
// metadata. The server fetches it on the client's first request, with
// the limits below, and keeps it for a while.
const (
	cimdTimeout    = 5 * time.Second
	cimdMaxBytes   = 64 << 10
	cimdMaxAge     = time.Hour       // the longest a document is kept, whatever it says
	cimdDefaultAge = 5 * time.Minute // without a Cache-Control max-age
	cimdMaxEntries = 1000
)

// ErrBlockedAddress is matched by the error of fetching a client ID
// metadata document from a loopback, private, link-local or otherwise
// internal address: the default HTTP client refuses them, so that a
// client_id cannot make the server reach into its own network (SSRF).
var ErrBlockedAddress = errors.New("oauthserver: the client ID metadata document's address is not public")

// isClientIDURL reports whether a client_id names a metadata document: an
// https URL with a path other than "/", and no fragment, user, query or
// dot segment.
func isClientIDURL(id string) bool {
	if !strings.HasPrefix(id, "https://") {
		return false
	}
	u, err := url.Parse(id)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(id, "#") {
		return false
	}
	if u.Path == "" || u.Path == "/" {
		return false
	}
	for seg := range strings.SplitSeq(u.EscapedPath(), "/") {
		if seg == "." || seg == ".." || strings.EqualFold(seg, "%2e") || strings.EqualFold(seg, "%2e%2e") {
			return false
		}
	}
	return true
}

// publicHTTPClient returns the client that fetches metadata documents
// when Config.HTTPClient is nil: it dials public addresses only (checked
// after DNS resolution, on the address dialled), uses no proxy, follows
// no redirect and gives up after cimdTimeout.
func publicHTTPClient() *http.Client {
	dialer := &net.Dialer{Timeout: cimdTimeout, Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		ip, err := netip.ParseAddr(host)
		if err != nil || !publicAddr(ip) {
			return fmt.Errorf("%w: %s", ErrBlockedAddress, host)
		}
		return nil
	}}
	return &http.Client{
		Timeout:       cimdTimeout,
		Transport:     &http.Transport{DialContext: dialer.DialContext, TLSHandshakeTimeout: cimdTimeout, MaxIdleConns: 10, IdleConnTimeout: time.Minute},
		CheckRedirect: noRedirects,
	}
}

// noRedirects refuses to follow a redirect.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// cgnat is the shared address space of RFC 6598.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// publicAddr reports whether ip is an address on the public internet.
func publicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsGlobalUnicast() && !ip.IsPrivate() && !ip.IsLoopback() && !ip.IsLinkLocalUnicast() && !cgnat.Contains(ip)
}

// cimdEntry is a fetched document, until it expires.
type cimdEntry struct {
	reg   registration
	until time.Time
}

// cimdCache fetches and keeps client ID metadata documents.
type cimdCache struct {
	hc  *http.Client
	now func() time.Time
	mu  sync.Mutex
	m   map[string]cimdEntry
}

func newCIMDCache(hc *http.Client, now func() time.Time) *cimdCache {
	if hc == nil {
		hc = publicHTTPClient()
	} else if hc.CheckRedirect == nil {
		c := *hc
		c.CheckRedirect = noRedirects
		hc = &c
	}
	return &cimdCache{hc: hc, now: now, m: map[string]cimdEntry{}}
}

// get returns the metadata of the client id names, from the cache or
// fetched.
func (c *cimdCache) get(ctx context.Context, id string) (*registration, error) {
	now := c.now()
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if ok && now.Before(e.until) {
		return &e.reg, nil
	}
	reg, age, err := c.fetch(ctx, id)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= cimdMaxEntries {
		for k, e := range c.m { // drop the expired, else one at random
			if !now.Before(e.until) || len(c.m) >= cimdMaxEntries {
				delete(c.m, k)
			}
			if len(c.m) < cimdMaxEntries/2 {
				break
			}
		}
	}
	c.m[id] = cimdEntry{reg: *reg, until: now.Add(age)}
	return reg, nil
}

// fetch gets and checks the document at id, and says how long to keep it.
func (c *cimdCache) fetch(ctx context.Context, id string) (*registration, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, cimdTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("fetching the client ID metadata document: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, 0, fmt.Errorf("the client ID metadata document answered %s", resp.Status)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		return nil, 0, fmt.Errorf("the client ID metadata document is %q, not application/json", mt)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, cimdMaxBytes+1))
	if err != nil {
		return nil, 0, fmt.Errorf("reading the client ID metadata document: %w", err)
	}
	if len(body) > cimdMaxBytes {
		return nil, 0, fmt.Errorf("the client ID metadata document is over %d bytes", cimdMaxBytes)
	}
	reg, err := checkDocument(body, id)
	if err != nil {
		return nil, 0, err
	}
	return reg, maxAge(resp.Header.Get("Cache-Control")), nil
}

// checkDocument decodes a client ID metadata document and checks it as a
// registration of a public client whose client_id is id.
func checkDocument(body []byte, id string) (*registration, error) {
	var doc struct {
		registration
		ClientID string `json:"client_id"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("the client ID metadata document is not a JSON object: %w", err)
	}
	if doc.ClientID != id {
		return nil, fmt.Errorf("the client ID metadata document's client_id %q is not its URL %q", doc.ClientID, id)
	}
	reg := doc.registration
	if reg.TokenEndpointAuthMethod == "" {
		reg.TokenEndpointAuthMethod = "none"
	}
	if code, desc := reg.check(); code != "" {
		return nil, fmt.Errorf("the client ID metadata document: %s: %s", code, desc)
	}
	if reg.TokenEndpointAuthMethod != "none" {
		return nil, errors.New("the client ID metadata document: token_endpoint_auth_method must be none: this server takes no secrets or keys from a document")
	}
	return &reg, nil
}

// maxAge is how long to keep a document served with cacheControl.
func maxAge(cacheControl string) time.Duration {
	for d := range strings.SplitSeq(cacheControl, ",") {
		d = strings.TrimSpace(strings.ToLower(d))
		if d == "no-store" || d == "no-cache" {
			return 0
		}
		if v, ok := strings.CutPrefix(d, "max-age="); ok {
			if n, err := strconv.Atoi(v); err == nil && n >= 0 {
				return min(time.Duration(n)*time.Second, cimdMaxAge)
			}
		}
	}
	return cimdDefaultAge
}
