package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// keySet is an issuer's JSON Web Key Set, fetched when first needed and
// again when it grows older than ttl or a token names a key it lacks, but
// never more than once per minInterval; while it holds no keys, a failed
// fetch is retried after retryMin, doubling up to minInterval.
//
// No lock is held during a fetch: one fetch is in flight at a time, in a
// goroutine of its own (bounded by the HTTP client's timeout, it ends on
// its own), and the set is swapped in when it arrives. Tokens naming a
// cached key never wait for it, even when the set is stale; tokens
// naming a key the set lacks wait for it, as long as their context
// allows.
type keySet struct {
	client      *http.Client
	issuer      string // discovered through, when jwksURL is empty
	ttl         time.Duration
	minInterval time.Duration
	retryMin    time.Duration
	now         func() time.Time

	mu       sync.Mutex
	jwksURL  string // discovered once, then kept
	keys     []jose.JSONWebKey
	fetched  time.Time     // last successful fetch (when it started)
	tried    time.Time     // last attempt (when it started)
	failures int           // failed attempts since the last success
	lastErr  error         // of the last attempt
	inflight chan struct{} // closed when the fetch in flight ends; nil when none is
}

// lookup returns the keys that may have signed a token naming kid (every
// key when kid is empty).
func (k *keySet) lookup(ctx context.Context, kid string) ([]jose.JSONWebKey, error) {
	k.mu.Lock()
	keys := k.match(kid)
	now := k.now()
	stale := k.keys == nil || now.Sub(k.fetched) >= k.ttl
	var wait chan struct{}
	if len(keys) == 0 || stale {
		wait = k.startFetch(now)
	}
	k.mu.Unlock()
	if len(keys) > 0 {
		return keys, nil // possibly stale while a fetch is on its way or failed: better than none
	}
	if wait != nil {
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: waiting for the issuer's key set: %w", ErrUnavailable, context.Cause(ctx))
		}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	keys = k.match(kid)
	switch {
	case len(keys) > 0:
		return keys, nil
	case k.keys == nil:
		return nil, k.lastErr
	default:
		return nil, fmt.Errorf("%w: no key %q in the issuer's key set", ErrInvalidToken, kid)
	}
}

// startFetch returns the channel closed when the fetch in flight ends,
// starting one if none is and the last attempt is old enough; nil when
// it is too soon. k.mu is held.
func (k *keySet) startFetch(now time.Time) chan struct{} {
	if k.inflight != nil {
		return k.inflight
	}
	if !k.tried.IsZero() && now.Sub(k.tried) < k.interval() {
		return nil
	}
	k.tried = now
	done := make(chan struct{})
	k.inflight = done
	go k.fetch(k.jwksURL, done)
	return done
}

// interval is the least time from the last attempt to the next: while no
// keys are held and fetches fail, retryMin doubled with each failure
// after the first, up to minInterval; otherwise minInterval. k.mu is
// held.
func (k *keySet) interval() time.Duration {
	if k.keys != nil || k.failures == 0 {
		return k.minInterval
	}
	d := k.retryMin
	for i := 1; i < k.failures && d < k.minInterval; i++ {
		d *= 2
	}
	return min(d, k.minInterval)
}

// fetch gets the key set, discovering its URL first when jwksURL is
// empty, and records the outcome; on failure the keys held are kept. It
// closes done when finished. It runs without k.mu, bounded by the HTTP
// client's timeout rather than by the request that started it.
func (k *keySet) fetch(jwksURL string, done chan struct{}) {
	defer close(done)
	keys, url, err := k.get(context.Background(), jwksURL)
	k.mu.Lock()
	defer k.mu.Unlock()
	k.inflight = nil
	if url != "" {
		k.jwksURL = url
	}
	if err != nil {
		k.failures++
		k.lastErr = err
		return
	}
	k.keys, k.fetched, k.failures, k.lastErr = keys, k.tried, 0, nil
}

// get fetches the key set from jwksURL, or from the URL the issuer's
// metadata names when jwksURL is empty; it returns the URL used.
func (k *keySet) get(ctx context.Context, jwksURL string) ([]jose.JSONWebKey, string, error) {
	if jwksURL == "" {
		md, err := discover(ctx, k.client, k.issuer)
		if err != nil {
			return nil, "", err
		}
		if _, err := checkServerURL("jwks_uri", md.JWKSURI); err != nil {
			return nil, "", fmt.Errorf("%w: %w", ErrUnavailable, err)
		}
		jwksURL = md.JWKSURI
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := getJSON(ctx, k.client, jwksURL, &set); err != nil {
		return nil, jwksURL, fmt.Errorf("%w: fetching the key set: %w", ErrUnavailable, err)
	}
	keys := []jose.JSONWebKey{}
	for _, raw := range set.Keys {
		var key jose.JSONWebKey
		if key.UnmarshalJSON(raw) == nil { // keys of unknown types are ignored (RFC 7517 §5)
			keys = append(keys, key)
		}
	}
	return keys, jwksURL, nil
}

// match returns the signing keys named kid, or all of them for "".
// k.mu is held.
func (k *keySet) match(kid string) []jose.JSONWebKey {
	var out []jose.JSONWebKey
	for _, key := range k.keys {
		if (kid == "" || key.KeyID == kid) && (key.Use == "" || key.Use == "sig") && key.IsPublic() {
			out = append(out, key)
		}
	}
	return out
}
