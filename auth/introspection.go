package auth

import (
	"bytes"
	"container/heap"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// IntrospectionOptions configures NewIntrospectionVerifier.
type IntrospectionOptions struct {
	// Endpoint is the authorization server's introspection endpoint
	// (RFC 7662 §2). It must be an https URL, or http for a loopback
	// host. Empty: the "introspection_endpoint" of Issuer's metadata
	// (RFC 8414), discovered when the first token is verified; a failed
	// discovery is tried again at most every ten seconds. One of
	// Endpoint and Issuer is required.
	Endpoint string
	// ClientID and ClientSecret authenticate this resource server to the
	// endpoint with HTTP Basic (client_secret_basic). Empty ClientID
	// sends no credentials (use HTTPClient for other schemes).
	ClientID, ClientSecret string
	// Audience is this resource's identifier, which the response's "aud"
	// must contain (RFC 8707). Required.
	Audience string
	// AllowMissingAudience accepts responses that carry no "aud" at all,
	// for servers that do not send it. A response naming only other
	// audiences is refused regardless.
	AllowMissingAudience bool
	// AllowMissingSubject accepts active answers without "sub" (optional
	// in RFC 7662), which are refused by default (401, wrapping
	// ErrNoSubject), as JWTOptions.AllowMissingSubject does for JWTs.
	// Such an answer must name its client ("client_id") and then stands
	// for that client: TokenInfo.Subject is empty and TokenInfo.Principal
	// is the issuer and client. So EVERY token without "sub" of one
	// client is ONE principal, sharing its sessions, tasks and
	// requestState: set it only when each such client is one caller.
	AllowMissingSubject bool
	// Issuer, when set, must equal the response's "iss" when it has one,
	// and is where Endpoint is discovered when it is empty.
	Issuer string
	// ClockSkew is tolerated when checking "exp" and "nbf". Zero means
	// DefaultClockSkew; negative means none.
	ClockSkew time.Duration
	// CacheTTL is the longest an active answer is reused without asking
	// the endpoint again; never past the token's "exp". A token revoked
	// meanwhile is still accepted until then. Zero means five minutes;
	// negative disables the cache. Inactive answers are not cached.
	CacheTTL time.Duration
	// MaxCacheEntries bounds the cache. Zero means 10000.
	MaxCacheEntries int
	// HTTPClient calls the endpoint. Nil means a client with a 10-second
	// timeout.
	HTTPClient *http.Client
	// now is the clock; tests set it.
	now func() time.Time
}

// IntrospectionVerifier is a TokenVerifier that asks the authorization
// server about each token (RFC 7662), for opaque tokens or when revocation
// must take effect quickly. Active answers are cached, keyed by a digest
// of the token, until the token's expiry or CacheTTL, whichever is first.
// It is safe for concurrent use and starts no goroutines.
type IntrospectionVerifier struct {
	opts IntrospectionOptions
	skew time.Duration

	mu    sync.Mutex
	cache map[[sha256.Size]byte]cached
	order expiryHeap // the cache's keys by expiry; an entry whose key was stored again or dropped is stale

	// The endpoint, discovered from the issuer's metadata when
	// opts.Endpoint is empty.
	endpointMu sync.Mutex
	endpoint   string
	tried      time.Time // last discovery attempt
	lastErr    error     // of the last discovery attempt
}

// discoveryInterval is the least time between two attempts to discover
// the introspection endpoint.
const discoveryInterval = 10 * time.Second

type cached struct {
	info  *TokenInfo
	until time.Time
}

// NewIntrospectionVerifier returns a verifier that asks opts.Endpoint. It
// does no network I/O. It returns an error when an option is invalid.
func NewIntrospectionVerifier(opts IntrospectionOptions) (*IntrospectionVerifier, error) {
	switch {
	case opts.Endpoint != "":
		if _, err := checkServerURL("introspection endpoint", opts.Endpoint); err != nil {
			return nil, err
		}
	case opts.Issuer != "":
		if _, err := checkServerURL("issuer", opts.Issuer); err != nil {
			return nil, err
		}
	default:
		return nil, errors.New("auth: IntrospectionOptions needs the Endpoint, or the Issuer whose metadata names it")
	}
	if opts.Audience == "" {
		return nil, errors.New("auth: IntrospectionOptions.Audience is required")
	}
	v := &IntrospectionVerifier{opts: opts, skew: opts.ClockSkew, cache: map[[sha256.Size]byte]cached{}, endpoint: opts.Endpoint}
	if v.skew == 0 {
		v.skew = DefaultClockSkew
	} else if v.skew < 0 {
		v.skew = 0
	}
	if v.opts.CacheTTL == 0 {
		v.opts.CacheTTL = 5 * time.Minute
	}
	if v.opts.MaxCacheEntries <= 0 {
		v.opts.MaxCacheEntries = 10000
	}
	if v.opts.HTTPClient == nil {
		v.opts.HTTPClient = defaultHTTPClient
	}
	if v.opts.now == nil {
		v.opts.now = time.Now
	}
	return v, nil
}

// introspection is the part of an RFC 7662 §2.2 response TokenInfo names.
type introspection struct {
	Active    bool   `json:"active"`
	Scope     string `json:"scope"`
	ClientID  string `json:"client_id"`
	Subject   string `json:"sub"`
	Issuer    string `json:"iss"`
	Audience  any    `json:"aud"`
	Expiry    int64  `json:"exp"`
	NotBefore int64  `json:"nbf"`
	IssuedAt  int64  `json:"iat"`
	ID        string `json:"jti"`
	Cnf       struct {
		JKT string `json:"jkt"`
	} `json:"cnf"`
}

// Verify returns the information of token, from the cache or from the
// endpoint. Errors wrap ErrInvalidToken (inactive, expired, for another
// audience or issuer) or ErrUnavailable (the endpoint failed). req is not
// used.
func (v *IntrospectionVerifier) Verify(ctx context.Context, token string, _ *http.Request) (*TokenInfo, error) {
	key := sha256.Sum256([]byte(token))
	now := v.opts.now()
	if v.opts.CacheTTL > 0 {
		v.mu.Lock()
		c, ok := v.cache[key]
		if ok && now.After(c.until) {
			delete(v.cache, key)
			ok = false
		}
		v.mu.Unlock()
		if ok {
			return c.info, nil
		}
	}
	info, err := v.introspect(ctx, token, now)
	if err != nil {
		return nil, err
	}
	if v.opts.CacheTTL > 0 {
		until := now.Add(v.opts.CacheTTL)
		if !info.Expiry.IsZero() && info.Expiry.Before(until) {
			until = info.Expiry
		}
		v.store(key, cached{info: info, until: until}, now)
	}
	return info, nil
}

// store adds an entry. It first drops the expired entries, then, while
// the cache is full, the entry that expires first: O(log n) per entry.
func (v *IntrospectionVerifier) store(key [sha256.Size]byte, c cached, now time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.cache, key) // stored again: its old place in order is stale
	for len(v.order) > 0 {
		top := v.order[0]
		e, ok := v.cache[top.digest]
		live := ok && e.until.Equal(top.until)
		if live && !now.After(top.until) && len(v.cache) < v.opts.MaxCacheEntries {
			break
		}
		heap.Pop(&v.order)
		if live {
			delete(v.cache, top.digest)
		}
	}
	v.cache[key] = c
	heap.Push(&v.order, expiryEntry{key, c.until})
}

// introspectionEndpoint returns the endpoint to ask: the configured one,
// or the one the issuer's metadata names, discovered once. Failures wrap
// ErrUnavailable.
func (v *IntrospectionVerifier) introspectionEndpoint(ctx context.Context) (string, error) {
	v.endpointMu.Lock()
	defer v.endpointMu.Unlock()
	if v.endpoint != "" {
		return v.endpoint, nil
	}
	now := v.opts.now()
	if !v.tried.IsZero() && now.Sub(v.tried) < discoveryInterval {
		return "", v.lastErr
	}
	v.tried = now
	// Bounded by the HTTP client's timeout, not by one caller's request.
	md, err := discover(context.WithoutCancel(ctx), v.opts.HTTPClient, v.opts.Issuer)
	switch {
	case err != nil:
		v.lastErr = err
	case md.IntrospectionEndpoint == "":
		v.lastErr = fmt.Errorf("%w: the metadata of %s names no introspection_endpoint: set IntrospectionOptions.Endpoint", ErrUnavailable, v.opts.Issuer)
	default:
		if _, err := checkServerURL("introspection_endpoint", md.IntrospectionEndpoint); err != nil {
			v.lastErr = fmt.Errorf("%w: %w", ErrUnavailable, err)
			break
		}
		v.endpoint, v.lastErr = md.IntrospectionEndpoint, nil
		return v.endpoint, nil
	}
	return "", v.lastErr
}

func (v *IntrospectionVerifier) introspect(ctx context.Context, token string, now time.Time) (*TokenInfo, error) {
	endpoint, err := v.introspectionEndpoint(ctx)
	if err != nil {
		return nil, err
	}
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if v.opts.ClientID != "" {
		// RFC 6749 §2.3.1: form-encode before Basic.
		req.SetBasicAuth(url.QueryEscape(v.opts.ClientID), url.QueryEscape(v.opts.ClientSecret))
	}
	resp, err := v.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: introspection: %w", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocumentBytes))
	if err != nil {
		return nil, fmt.Errorf("%w: introspection: %w", ErrUnavailable, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: introspection: %s", ErrUnavailable, resp.Status)
	}
	var r introspection
	var raw map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%w: introspection response: %w", ErrUnavailable, err)
	}
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%w: introspection response: %w", ErrUnavailable, err)
	}
	if !r.Active {
		return nil, fmt.Errorf("%w: token is not active", ErrInvalidToken)
	}
	info := &TokenInfo{
		Subject: r.Subject, ClientID: r.ClientID, Issuer: r.Issuer, Scopes: strings.Fields(r.Scope),
		Audience: audience(r.Audience), ID: r.ID, ConfirmationJKT: r.Cnf.JKT, Claims: raw,
	}
	if r.Expiry != 0 {
		info.Expiry = time.Unix(r.Expiry, 0)
	}
	if r.NotBefore != 0 {
		info.NotBefore = time.Unix(r.NotBefore, 0)
	}
	if r.IssuedAt != 0 {
		info.IssuedAt = time.Unix(r.IssuedAt, 0)
	}
	switch {
	case v.opts.Issuer != "" && r.Issuer != "" && r.Issuer != v.opts.Issuer:
		return nil, fmt.Errorf("%w: issued by %q", ErrInvalidToken, r.Issuer)
	case len(info.Audience) == 0 && !v.opts.AllowMissingAudience:
		return nil, fmt.Errorf("%w: no audience", ErrInvalidToken)
	case len(info.Audience) > 0 && !slices.Contains(info.Audience, v.opts.Audience):
		return nil, fmt.Errorf("%w: issued for %q", ErrInvalidToken, info.Audience)
	case !info.Expiry.IsZero() && now.After(info.Expiry.Add(v.skew)):
		return nil, fmt.Errorf("%w: token expired", ErrInvalidToken)
	case !info.NotBefore.IsZero() && now.Add(v.skew).Before(info.NotBefore):
		return nil, fmt.Errorf("%w: token not yet valid", ErrInvalidToken)
	}
	if err := checkSubject(info, v.opts.AllowMissingSubject); err != nil {
		return nil, err
	}
	return info, nil
}

// audience reads "aud": a string or an array of strings.
func audience(aud any) []string {
	switch a := aud.(type) {
	case string:
		return []string{a}
	case []any:
		var out []string
		for _, e := range a {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
