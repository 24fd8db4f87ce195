package oauthserver

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/auth"
)

// TestReplicas: two servers sharing one KV act as one: a refresh token
// issued by one is redeemed at the other (once), and a client registered
// at one is known at the other.
func TestReplicas(t *testing.T) {
	kv := sharedKV()
	a := startAS(t, Config{Store: kv, Clients: testClients})
	b := startAS(t, Config{Store: kv, Clients: testClients, Issuer: a.URL})
	p := newPKCE()
	first := a.redeem(t, publicID, a.code(t, publicID, p), p)
	if first.Status != 200 {
		t.Fatalf("token at a: %+v", first)
	}
	rotated := b.refresh(t, publicID, first.RefreshToken)
	if rotated.Status != 200 {
		t.Fatalf("refresh at b of a's token: %+v", rotated)
	}
	if r := a.refresh(t, publicID, first.RefreshToken); r.Error != "invalid_grant" {
		t.Errorf("reuse at a of the token b rotated: %+v, want invalid_grant", r)
	}
	status, m := registerClient(t, a, `{"redirect_uris":["`+callbackURI+`"],"token_endpoint_auth_method":"none"}`)
	if status != 201 {
		t.Fatalf("registration: %d %v", status, m)
	}
	id := m["client_id"].(string)
	p = newPKCE()
	if tr := a.redeem(t, id, b.code(t, id, p), p); tr.Status != 200 {
		t.Errorf("a client registered at a, authorized at b, redeemed at a: %+v", tr)
	}
}

// TestKeyRotation: when the signing key rotates while tokens are live,
// the old tokens keep verifying, and a verifier that fetched the key set
// before the rotation accepts the new key's tokens without fetching again
// (the next key is published one period ahead).
func TestKeyRotation(t *testing.T) {
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()) }
	kv := sharedKV()
	cfg := Config{Store: kv, Clients: testClients, KeyRotation: 2 * time.Hour, now: now}
	a := startAS(t, cfg)
	cfg.Issuer = a.URL
	b := startAS(t, cfg)
	p := newPKCE()
	old := a.redeem(t, publicID, a.code(t, publicID, p), p)
	v, err := auth.NewJWTVerifier(auth.JWTOptions{
		Issuer: a.URL, Audience: testResource, JWKSURL: b.URL + "/jwks.json",
		MinRefetchInterval: time.Hour, KeySetTTL: 24 * time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := v.Verify(ctx, old.AccessToken, nil); err != nil {
		t.Fatalf("before the rotation: %v", err)
	}
	clock.Add(int64(2 * time.Hour)) // the next period: b signs with the next key
	p = newPKCE()
	fresh := b.redeem(t, publicID, b.code(t, publicID, p), p)
	if kid(t, fresh.AccessToken) == kid(t, old.AccessToken) {
		t.Fatal("the key did not rotate")
	}
	if _, err := v.Verify(ctx, fresh.AccessToken, nil); err != nil {
		t.Errorf("a token of the new key, with the key set fetched before the rotation: %v", err)
	}
	if _, err := v.Verify(ctx, old.AccessToken, nil); err != nil {
		t.Errorf("the old token after the rotation: %v", err)
	}
	later, err := auth.NewJWTVerifier(auth.JWTOptions{Issuer: a.URL, Audience: testResource, JWKSURL: a.URL + "/jwks.json"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := later.Verify(ctx, old.AccessToken, nil); err != nil {
		t.Errorf("the old token, with the key set fetched after the rotation: %v", err)
	}
	if !b.active(t, old.AccessToken) {
		t.Error("introspection at b of a's token from before the rotation")
	}
}

// kid is the key ID of a JWT.
func kid(t *testing.T, token string) string {
	t.Helper()
	var hdr struct{ Kid string }
	if err := decodeSegment(token[:indexDot(token)], &hdr); err != nil {
		t.Fatal(err)
	}
	return hdr.Kid
}

func indexDot(s string) int {
	for i := range s {
		if s[i] == '.' {
			return i
		}
	}
	return len(s)
}

// TestConcurrentRedemption: a code and a refresh token sent at once to two
// replicas, several times each, are redeemed once.
func TestConcurrentRedemption(t *testing.T) {
	kv := sharedKV()
	a := startAS(t, Config{Store: kv, Clients: testClients})
	b := startAS(t, Config{Store: kv, Clients: testClients, Issuer: a.URL})
	p := newPKCE()
	code := a.code(t, publicID, p)
	count := func(redeem func(as *testAS) tokenResponse) (ok int, rt string) {
		results := make(chan tokenResponse, 8)
		var wg sync.WaitGroup
		for i := range 8 {
			as := []*testAS{a, b}[i%2]
			wg.Go(func() { results <- redeem(as) })
		}
		wg.Wait()
		close(results)
		for r := range results {
			if r.Status == 200 {
				ok++
				rt = r.RefreshToken
			}
		}
		return ok, rt
	}
	ok, rt := count(func(as *testAS) tokenResponse { return as.redeem(t, publicID, code, p) })
	if ok != 1 {
		t.Fatalf("the code was redeemed %d times, want once", ok)
	}
	if ok, _ = count(func(as *testAS) tokenResponse { return as.refresh(t, publicID, rt) }); ok > 1 {
		t.Errorf("the refresh token was redeemed %d times, want at most once", ok)
	}
}
