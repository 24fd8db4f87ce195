package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestIntrospection: an active token is accepted and cached until its
// expiry or the TTL, an inactive one refused, one for another audience
// refused, and the cache stays within its bound.
func TestIntrospection(t *testing.T) {
	is := newTestIssuer(t)
	clock := &fakeClock{t: time.Now()}
	exp := clock.t.Add(2 * time.Minute)
	is.active["good"] = map[string]any{"active": true, "sub": "alice", "client_id": "app", "scope": "files:read", "aud": testResource, "iss": is.srv.URL, "exp": exp.Unix(), "tenant": "t1"}
	is.active["other-aud"] = map[string]any{"active": true, "sub": "alice", "aud": []string{"https://other"}}
	is.active["no-aud"] = map[string]any{"active": true, "sub": "alice"}
	is.active["other-iss"] = map[string]any{"active": true, "sub": "alice", "aud": testResource, "iss": "https://evil"}
	is.active["expired"] = map[string]any{"active": true, "sub": "alice", "aud": testResource, "exp": clock.t.Add(-time.Hour).Unix()}
	v, err := NewIntrospectionVerifier(IntrospectionOptions{Endpoint: is.srv.URL + "/introspect", ClientID: "rs", ClientSecret: "s3cret", Audience: testResource, Issuer: is.srv.URL, HTTPClient: is.srv.Client(), MaxCacheEntries: 2, now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	info, err := v.Verify(ctx, "good", nil)
	if err != nil {
		t.Fatal(err)
	}
	if info.Subject != "alice" || info.ClientID != "app" || !info.HasScopes("files:read") || info.Claims["tenant"] != "t1" || !info.Expiry.Equal(time.Unix(exp.Unix(), 0)) {
		t.Errorf("info = %+v", info)
	}
	if _, err := v.Verify(ctx, "good", nil); err != nil {
		t.Fatal(err)
	}
	if got := is.introspectHits.Load(); got != 1 {
		t.Errorf("introspected %d times, want 1 (cached)", got)
	}
	for _, token := range []string{"unknown", "other-aud", "no-aud", "other-iss", "expired"} {
		if _, err := v.Verify(ctx, token, nil); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("%s: %v, want ErrInvalidToken", token, err)
		}
	}
	// Inactive answers are not cached.
	before := is.introspectHits.Load()
	_, _ = v.Verify(ctx, "unknown", nil)
	if is.introspectHits.Load() != before+1 {
		t.Error("an inactive answer was cached")
	}
	// The cache entry ends at the token's exp (2 minutes, before the TTL).
	clock.advance(3 * time.Minute)
	before = is.introspectHits.Load()
	_, _ = v.Verify(ctx, "good", nil)
	if is.introspectHits.Load() != before+1 {
		t.Error("the cached answer outlived the token's exp")
	}

	// Bounded: more distinct active tokens than MaxCacheEntries.
	for _, tok := range []string{"a", "b", "c", "d"} {
		is.active[tok] = map[string]any{"active": true, "sub": tok, "aud": testResource}
		if _, err := v.Verify(ctx, tok, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(v.cache); n > 2 {
		t.Errorf("cache holds %d entries, bound 2", n)
	}

	// Missing audience allowed by option; endpoint failures are ErrUnavailable.
	v2, _ := NewIntrospectionVerifier(IntrospectionOptions{Endpoint: is.srv.URL + "/introspect", ClientID: "rs", ClientSecret: "s3cret", Audience: testResource, AllowMissingAudience: true, HTTPClient: is.srv.Client()})
	if _, err := v2.Verify(ctx, "no-aud", nil); err != nil {
		t.Errorf("no-aud with AllowMissingAudience: %v", err)
	}
	if _, err := v2.Verify(ctx, "other-aud", nil); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("other-aud with AllowMissingAudience: %v", err)
	}
	v3, _ := NewIntrospectionVerifier(IntrospectionOptions{Endpoint: is.srv.URL + "/introspect", ClientID: "rs", ClientSecret: "wrong", Audience: testResource, HTTPClient: is.srv.Client()})
	if _, err := v3.Verify(ctx, "good", nil); !errors.Is(err, ErrUnavailable) {
		t.Errorf("rejected credentials: %v, want ErrUnavailable", err)
	}
	if _, err := NewIntrospectionVerifier(IntrospectionOptions{Endpoint: "http://idp.example.com/introspect", Audience: "a"}); err == nil {
		t.Error("remote http endpoint accepted")
	}
}

// TestIntrospectionThroughMiddleware: an inactive token gets 401
// invalid_token from the middleware, an active one through.
func TestIntrospectionThroughMiddleware(t *testing.T) {
	is := newTestIssuer(t)
	is.active["good"] = map[string]any{"active": true, "sub": "alice", "client_id": "app", "scope": "files:read", "aud": testResource}
	v, err := NewIntrospectionVerifier(IntrospectionOptions{Endpoint: is.srv.URL + "/introspect", ClientID: "rs", ClientSecret: "s3cret", Audience: testResource, HTTPClient: is.srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	srv := protectedServer(t, v, "files:read")
	if got := call(t, srv.URL, bearerHeader("good")); got.status != 200 || got.body != "alice app files:read" {
		t.Errorf("active: %+v", got)
	}
	want := answer{401, `Bearer error="invalid_token", scope="files:read", resource_metadata="` + testMetadata + `"`, ""}
	if got := call(t, srv.URL, bearerHeader("revoked")); got.status != want.status || got.challenge != want.challenge {
		t.Errorf("inactive: %+v, want %+v", got, want)
	}
}

// TestIntrospectionDiscovery: without an Endpoint, the verifier asks the
// endpoint the issuer's metadata names, discovered once; while the issuer
// is down the discovery is retried at most every discoveryInterval, and
// neither Endpoint nor Issuer is a configuration error.
func TestIntrospectionDiscovery(t *testing.T) {
	is := newTestIssuer(t)
	is.active["good"] = map[string]any{"active": true, "sub": "alice", "aud": testResource}
	clock := &fakeClock{t: time.Now()}
	v, err := NewIntrospectionVerifier(IntrospectionOptions{Issuer: is.srv.URL, ClientID: "rs", ClientSecret: "s3cret", Audience: testResource, HTTPClient: is.srv.Client(), CacheTTL: -1, now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	is.down.Store(true)
	if _, err := v.Verify(ctx, "good", nil); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("issuer down: %v, want ErrUnavailable", err)
	}
	is.down.Store(false)
	hits := is.metadataHits.Load()
	if _, err := v.Verify(ctx, "good", nil); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("within the retry interval: %v, want the remembered ErrUnavailable", err)
	}
	if is.metadataHits.Load() != hits {
		t.Error("discovery retried within discoveryInterval")
	}
	clock.advance(discoveryInterval)
	for range 3 {
		info, err := v.Verify(ctx, "good", nil)
		if err != nil {
			t.Fatal(err)
		}
		if info.Subject != "alice" {
			t.Errorf("subject %q", info.Subject)
		}
	}
	if got := is.metadataHits.Load() - hits; got != 1 {
		t.Errorf("metadata fetched %d times after the issuer came back, want 1", got)
	}
	if got := is.introspectHits.Load(); got != 3 {
		t.Errorf("introspected %d times, want 3 (cache off)", got)
	}

	if _, err := NewIntrospectionVerifier(IntrospectionOptions{Audience: testResource}); err == nil || !strings.Contains(err.Error(), "Endpoint") {
		t.Errorf("neither Endpoint nor Issuer: %v", err)
	}
	if _, err := NewIntrospectionVerifier(IntrospectionOptions{Issuer: "http://idp.example.com", Audience: testResource}); err == nil {
		t.Error("remote http issuer accepted")
	}
}

// TestIntrospectionCacheEvictsSoonestExpiry: a full cache drops the entry
// that expires first, not an arbitrary one, and keeps its bound when the
// same token is stored again.
func TestIntrospectionCacheEvictsSoonestExpiry(t *testing.T) {
	is := newTestIssuer(t)
	clock := &fakeClock{t: time.Now()}
	v, err := NewIntrospectionVerifier(IntrospectionOptions{Endpoint: is.srv.URL + "/introspect", ClientID: "rs", ClientSecret: "s3cret", Audience: testResource, HTTPClient: is.srv.Client(), MaxCacheEntries: 3, now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// Token i expires in i+1 minutes; "t1" first.
	tokens := []string{"t3", "t1", "t4", "t2"}
	for _, tok := range tokens {
		mins := time.Duration(tok[1]-'0') * time.Minute
		is.active[tok] = map[string]any{"active": true, "sub": tok, "aud": testResource, "exp": clock.t.Add(mins).Unix()}
	}
	for _, tok := range tokens {
		if _, err := v.Verify(ctx, tok, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(v.cache); n != 3 {
		t.Fatalf("cache holds %d entries, want 3", n)
	}
	// t1, the soonest to expire, was dropped when t2 came: asking for the
	// others again hits the cache, t1 goes to the endpoint.
	for _, tc := range []struct {
		tok  string
		hits int32
	}{{"t2", 0}, {"t3", 0}, {"t4", 0}, {"t1", 1}} {
		before := is.introspectHits.Load()
		if _, err := v.Verify(ctx, tc.tok, nil); err != nil {
			t.Fatal(err)
		}
		if got := is.introspectHits.Load() - before; got != tc.hits {
			t.Errorf("%s: introspected %d times, want %d", tc.tok, got, tc.hits)
		}
	}
	// Expired entries go first, and the heap does not outgrow the cache.
	clock.advance(150 * time.Second) // t1 and t2 are expired now
	for i := range 50 {
		tok := fmt.Sprintf("x%d", i)
		is.active[tok] = map[string]any{"active": true, "sub": tok, "aud": testResource}
		if _, err := v.Verify(ctx, tok, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n, h := len(v.cache), len(v.order); n != 3 || h > 2*n {
		t.Errorf("cache %d entries, heap %d: want 3 and at most 6", n, h)
	}
}
