package auth

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for the verifiers' rate limits and caches.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestJWTKeyRotation: the key set is fetched once, fetched again when a
// token names a key it lacks (the issuer rotated), but not more than once
// per MinRefetchInterval however many unknown kids come, and again after
// KeySetTTL.
func TestJWTKeyRotation(t *testing.T) {
	is := newTestIssuer(t)
	is.addKey("k1", "ES256")
	clock := &fakeClock{t: time.Now()}
	v, err := NewJWTVerifier(JWTOptions{Issuer: is.srv.URL, Audience: testResource, HTTPClient: is.srv.Client(), MinRefetchInterval: time.Minute, KeySetTTL: time.Hour, now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	verify := func(kid string) error {
		t.Helper()
		_, err := v.Verify(ctx, is.sign(kid, "at+jwt", is.claims(testResource, map[string]any{"exp": time.Now().Add(24 * time.Hour).Unix()})), nil)
		return err
	}
	hits := func(want int32) {
		t.Helper()
		if got := is.jwksHits.Load(); got != want {
			t.Fatalf("key set fetched %d times, want %d", got, want)
		}
	}
	if err := verify("k1"); err != nil {
		t.Fatal(err)
	}
	if err := verify("k1"); err != nil {
		t.Fatal(err)
	}
	hits(1)
	if got := is.metadataHits.Load(); got != 1 {
		t.Fatalf("metadata fetched %d times, want 1", got)
	}

	// Rotation: k2 replaces k1. The first k2 token triggers a refetch only
	// once the minimum interval has passed since the last fetch.
	is.addKey("k2", "ES256")
	is.removeKey("k1")
	if err := verify("k2"); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("k2 within the refetch interval: %v, want ErrInvalidToken", err)
	}
	hits(1)
	clock.advance(time.Minute)
	if err := verify("k2"); err != nil {
		t.Fatalf("k2 after rotation: %v", err)
	}
	hits(2)
	// k1 is gone from the fetched set.
	if err := verify("k1"); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("k1 after rotation: %v, want ErrInvalidToken", err)
	}
	// A flood of unknown kids costs no fetch within the interval.
	for range 20 {
		_ = verify("k1")
	}
	hits(2)
	// After the TTL the set is fetched again on the next token.
	clock.advance(time.Hour)
	if err := verify("k2"); err != nil {
		t.Fatal(err)
	}
	hits(3)
	if got := is.metadataHits.Load(); got != 1 {
		t.Fatalf("metadata fetched %d times, want 1 (the jwks_uri is kept)", got)
	}
}

// TestJWTIssuerDownKeepsKeys: a failed refetch keeps the keys it had, and
// a failed first fetch is not retried within the interval.
func TestJWTIssuerDown(t *testing.T) {
	is := newTestIssuer(t)
	is.addKey("k1", "ES256")
	clock := &fakeClock{t: time.Now()}
	v, err := NewJWTVerifier(JWTOptions{Issuer: is.srv.URL, Audience: testResource, HTTPClient: is.srv.Client(), now: clock.now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	token := is.sign("k1", "at+jwt", is.claims(testResource, map[string]any{"exp": time.Now().Add(24 * time.Hour).Unix()}))
	is.down.Store(true)
	if _, err := v.Verify(ctx, token, nil); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("issuer down: %v, want ErrUnavailable", err)
	}
	is.down.Store(false)
	if _, err := v.Verify(ctx, token, nil); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("retry within the interval: %v, want the remembered ErrUnavailable", err)
	}
	clock.advance(time.Minute)
	if _, err := v.Verify(ctx, token, nil); err != nil {
		t.Fatal(err)
	}
	is.down.Store(true)
	clock.advance(2 * time.Hour) // stale, and the refetch fails
	if _, err := v.Verify(ctx, token, nil); err != nil {
		t.Fatalf("stale keys while the issuer is down: %v", err)
	}
}

// TestJWTDiscoveryPathIssuer: an issuer with a path whose metadata is only
// at the OpenID Connect appended location is found, and a JWKSURL skips
// discovery.
func TestJWTDiscoveryPathIssuer(t *testing.T) {
	is := newTestIssuer(t)
	is.addKey("k1", "ES256")
	var issuer string
	mux := http.NewServeMux()
	mux.HandleFunc("GET /tenant1/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"issuer": issuer, "jwks_uri": is.srv.URL + "/jwks"})
	})
	idp := httptest.NewServer(mux)
	defer idp.Close()
	issuer = idp.URL + "/tenant1"
	v, err := NewJWTVerifier(JWTOptions{Issuer: issuer, Audience: testResource, HTTPClient: idp.Client()})
	if err != nil {
		t.Fatal(err)
	}
	info, err := v.Verify(context.Background(), is.sign("k1", "at+jwt", is.claims(testResource, map[string]any{"iss": issuer})), nil)
	if err != nil {
		t.Fatal(err)
	}
	if info.Issuer != issuer || info.Subject != "alice" {
		t.Errorf("info = %+v", info)
	}

	v, err = NewJWTVerifier(JWTOptions{Issuer: "https://idp.example", JWKSURL: is.srv.URL + "/jwks", Audience: testResource, HTTPClient: is.srv.Client(), RequireJWTAccessTokenType: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(context.Background(), is.sign("k1", "at+jwt", is.claims(testResource, map[string]any{"iss": "https://idp.example"})), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(context.Background(), is.sign("k1", "JWT", is.claims(testResource, map[string]any{"iss": "https://idp.example"})), nil); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("typ JWT with RequireJWTAccessTokenType: %v", err)
	}
	if got := is.metadataHits.Load(); got != 0 {
		t.Errorf("metadata fetched %d times with JWKSURL set", got)
	}
}

func TestNewJWTVerifierOptions(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts JWTOptions
		ok   bool
	}{
		{"https", JWTOptions{Issuer: "https://idp.example.com", Audience: "a"}, true},
		{"loopback http", JWTOptions{Issuer: "http://127.0.0.1:9000", Audience: "a"}, true},
		{"localhost http", JWTOptions{Issuer: "http://localhost:9000/realms/x", Audience: "a"}, true},
		{"ipv6 loopback", JWTOptions{Issuer: "http://[::1]:9000", Audience: "a"}, true},
		{"remote http", JWTOptions{Issuer: "http://idp.example.com", Audience: "a"}, false},
		{"no audience", JWTOptions{Issuer: "https://idp.example.com"}, false},
		{"HMAC", JWTOptions{Issuer: "https://idp.example.com", Audience: "a", Algorithms: []string{"HS256"}}, false},
		{"none", JWTOptions{Issuer: "https://idp.example.com", Audience: "a", Algorithms: []string{"none"}}, false},
		{"empty algorithms", JWTOptions{Issuer: "https://idp.example.com", Audience: "a", Algorithms: []string{}}, false},
		{"remote http JWKS", JWTOptions{Issuer: "https://idp.example.com", Audience: "a", JWKSURL: "http://idp.example.com/jwks"}, false},
	} {
		_, err := NewJWTVerifier(tt.opts)
		if (err == nil) != tt.ok {
			t.Errorf("%s: err = %v", tt.name, err)
		}
	}
}

// TestJWTAlgorithmAllowList: a token signed with an algorithm outside
// Algorithms is refused even when the key is the issuer's.
func TestJWTAlgorithmAllowList(t *testing.T) {
	is := newTestIssuer(t)
	is.addKey("rsa", "RS256")
	v, err := NewJWTVerifier(JWTOptions{Issuer: is.srv.URL, Audience: testResource, HTTPClient: is.srv.Client(), Algorithms: []string{"ES256"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(context.Background(), is.sign("rsa", "at+jwt", is.claims(testResource, nil)), nil); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("RS256 token with ES256 only: %v", err)
	}
}

// TestJWTConcurrentRotation verifies from many goroutines while the
// issuer rotates keys (run with -race).
func TestJWTConcurrentRotation(t *testing.T) {
	is := newTestIssuer(t)
	is.addKey("k1", "ES256")
	is.addKey("k2", "ES256")
	v, err := NewJWTVerifier(JWTOptions{Issuer: is.srv.URL, Audience: testResource, HTTPClient: is.srv.Client(), MinRefetchInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	tokens := []string{is.sign("k1", "at+jwt", is.claims(testResource, nil)), is.sign("k2", "at+jwt", is.claims(testResource, nil))}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 20 {
				if _, err := v.Verify(context.Background(), tokens[(i+j)%2], nil); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
