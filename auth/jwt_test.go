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
	// After the TTL the set is fetched again, started by the next token,
	// which does not wait for it.
	clock.advance(time.Hour)
	if err := verify("k2"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return is.jwksHits.Load() == 3 })
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

// TestJWTUnknownKeyDoesNotStallOthers (issue 29 item 3): while the key
// set is being fetched for a token naming an unknown key, and the issuer
// is slow to answer, tokens signed by a known key are verified at once,
// also once the cached set is past its TTL; the token with the unknown
// key waits for the fetch only as long as its context allows.
func TestJWTUnknownKeyDoesNotStallOthers(t *testing.T) {
	is, clock, v := clockedIssuer(t, nil)
	claims := is.claims(testResource, map[string]any{"exp": time.Now().Add(24 * time.Hour).Unix()})
	known := is.sign("k1", "at+jwt", claims)
	if _, err := v.Verify(context.Background(), known, nil); err != nil {
		t.Fatal(err)
	}
	is.addKey("k2", "ES256") // published after the fetch
	unknown := is.sign("k2", "at+jwt", claims)
	clock.advance(time.Minute)
	entered, release := is.holdJWKS()
	defer release()

	// The unknown key starts a fetch, which the issuer holds.
	waitCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	waited := make(chan error, 1)
	go func() {
		_, err := v.Verify(waitCtx, unknown, nil)
		waited <- err
	}()
	select {
	case <-entered:
	case <-time.After(30 * time.Second):
		t.Fatal("the unknown key started no fetch")
	}
	verifyKnown := func(what string) {
		t.Helper()
		done := make(chan error, 1)
		go func() {
			_, err := v.Verify(context.Background(), known, nil)
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		case <-time.After(10 * time.Second): // the fetch is held until release: only a stalled Verify gets here
			release()
			t.Fatalf("%s: waited for the fetch of the unknown key", what)
		}
	}
	verifyKnown("known key during the fetch")
	clock.advance(2 * time.Hour) // the cached set is now stale: still used, without waiting
	verifyKnown("known key, stale set, during the fetch")
	if got := is.jwksHits.Load(); got != 2 {
		t.Errorf("key set fetched %d times, want 2 (one fetch in flight at a time)", got)
	}
	// The waiting token gives up with its context, as unavailable.
	cancel()
	select {
	case err := <-waited:
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("unknown key, context cancelled: %v, want ErrUnavailable", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the unknown key's Verify did not end with its context")
	}
	// Once the fetch completes, the new key is known.
	release()
	waitFor(t, func() bool {
		_, err := v.Verify(context.Background(), unknown, nil)
		return err == nil
	})
}

// clockedIssuer returns an issuer publishing the key "k1", and a verifier
// of its tokens on a fake clock, with the default options but for what
// configure (when not nil) sets.
func clockedIssuer(t *testing.T, configure func(*JWTOptions)) (*testIssuer, *fakeClock, *JWTVerifier) {
	t.Helper()
	is := newTestIssuer(t)
	is.addKey("k1", "ES256")
	clock := &fakeClock{t: time.Now()}
	opts := JWTOptions{Issuer: is.srv.URL, Audience: testResource, HTTPClient: is.srv.Client(), now: clock.now}
	if configure != nil {
		configure(&opts)
	}
	v, err := NewJWTVerifier(opts)
	if err != nil {
		t.Fatal(err)
	}
	return is, clock, v
}

// waitFor polls cond until it holds, failing the test after 30 seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 30s")
		}
	}
}

// TestJWTRotationDefaultInterval (issue 29 item 4): with the default
// settings, a token signed by a key the issuer published since the last
// fetch is accepted once ten seconds have passed since that fetch; within
// them, a flood of unknown kids costs no fetch.
func TestJWTRotationDefaultInterval(t *testing.T) {
	is, clock, v := clockedIssuer(t, nil)
	claims := is.claims(testResource, map[string]any{"exp": time.Now().Add(24 * time.Hour).Unix()})
	if _, err := v.Verify(context.Background(), is.sign("k1", "at+jwt", claims), nil); err != nil {
		t.Fatal(err)
	}
	is.addKey("k2", "ES256")
	k2 := is.sign("k2", "at+jwt", claims)
	for range 20 {
		if _, err := v.Verify(context.Background(), k2, nil); !errors.Is(err, ErrInvalidToken) {
			t.Fatalf("k2 right after the fetch: %v, want ErrInvalidToken", err)
		}
	}
	if got := is.jwksHits.Load(); got != 1 {
		t.Fatalf("key set fetched %d times within the interval, want 1", got)
	}
	clock.advance(DefaultMinRefetchInterval)
	if _, err := v.Verify(context.Background(), k2, nil); err != nil {
		t.Fatalf("k2 %v after the last fetch: %v", DefaultMinRefetchInterval, err)
	}
}

// TestJWTIssuerRecovers (issue 29 item 4): while no keys are held, a
// failed fetch is retried after a short backoff that doubles with each
// failure (1s, 2s, ...), so the first token after the issuer recovers
// is accepted within seconds, not a minute.
func TestJWTIssuerRecovers(t *testing.T) {
	// JWKSURL: one request per attempt (no discovery).
	is, clock, v := clockedIssuer(t, func(o *JWTOptions) { o.JWKSURL = o.Issuer + "/jwks" })
	token := is.sign("k1", "at+jwt", is.claims(testResource, map[string]any{"exp": time.Now().Add(24 * time.Hour).Unix()}))
	verify := func() error {
		_, err := v.Verify(context.Background(), token, nil)
		return err
	}
	attempts := func(want int32) {
		t.Helper()
		if got := is.downHits.Load(); got != want {
			t.Fatalf("%d fetch attempts, want %d", got, want)
		}
	}
	is.down.Store(true)
	for _, step := range []struct {
		advance time.Duration
		want    int32 // attempts so far
	}{
		{0, 1}, {0, 1}, // the first failure, then no retry within the backoff
		{DefaultFetchRetryInterval, 2},                                     // 1s later: retried
		{DefaultFetchRetryInterval, 2},                                     // 1s more: within the doubled backoff
		{DefaultFetchRetryInterval, 3},                                     // 2s after the second: retried
		{3 * DefaultFetchRetryInterval, 3}, {DefaultFetchRetryInterval, 4}, // then 4s
	} {
		clock.advance(step.advance)
		if err := verify(); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("issuer down: %v, want ErrUnavailable", err)
		}
		attempts(step.want)
	}
	is.down.Store(false)
	if err := verify(); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("recovered, within the backoff: %v, want the remembered ErrUnavailable", err)
	}
	clock.advance(8 * DefaultFetchRetryInterval)
	if err := verify(); err != nil {
		t.Fatalf("recovered, after the backoff: %v", err)
	}
}
