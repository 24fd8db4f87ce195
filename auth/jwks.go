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
// never more than once per minInterval. It starts no goroutine: fetches
// happen in the Verify call that needs them.
type keySet struct {
	client      *http.Client
	issuer      string // discovered through, when jwksURL is empty
	ttl         time.Duration
	minInterval time.Duration
	now         func() time.Time

	mu      sync.RWMutex
	jwksURL string // discovered once, then kept
	keys    []jose.JSONWebKey
	fetched time.Time // last successful fetch
	tried   time.Time // last attempt
	lastErr error     // of the last attempt
}

// lookup returns the keys that may have signed a token naming kid (every
// key when kid is empty).
func (k *keySet) lookup(ctx context.Context, kid string) ([]jose.JSONWebKey, error) {
	k.mu.RLock()
	keys, fresh := k.match(kid), k.keys != nil && k.now().Sub(k.fetched) < k.ttl
	k.mu.RUnlock()
	if len(keys) > 0 && fresh {
		return keys, nil
	}

	k.mu.Lock()
	defer k.mu.Unlock()
	keys = k.match(kid)
	stale := k.keys == nil || k.now().Sub(k.fetched) >= k.ttl
	if (len(keys) == 0 || stale) && (k.tried.IsZero() || k.now().Sub(k.tried) >= k.minInterval) {
		k.refresh(ctx)
		keys = k.match(kid)
	}
	switch {
	case len(keys) > 0:
		return keys, nil // possibly stale keys when a refresh failed: better than none
	case k.keys == nil:
		return nil, k.lastErr
	default:
		return nil, fmt.Errorf("%w: no key %q in the issuer's key set", ErrInvalidToken, kid)
	}
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

// refresh fetches the key set, discovering its URL first if needed. On
// failure it keeps the keys it had. k.mu is held for writing.
func (k *keySet) refresh(ctx context.Context) {
	// One caller's cancelled request must not count as the issuer's
	// failure for everyone until the next allowed fetch: the fetch is
	// bounded by the HTTP client's timeout instead.
	ctx = context.WithoutCancel(ctx)
	k.tried = k.now()
	if k.jwksURL == "" {
		md, err := discover(ctx, k.client, k.issuer)
		if err != nil {
			k.lastErr = err
			return
		}
		if _, err := checkServerURL("jwks_uri", md.JWKSURI); err != nil {
			k.lastErr = fmt.Errorf("%w: %w", ErrUnavailable, err)
			return
		}
		k.jwksURL = md.JWKSURI
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := getJSON(ctx, k.client, k.jwksURL, &set); err != nil {
		k.lastErr = fmt.Errorf("%w: fetching the key set: %w", ErrUnavailable, err)
		return
	}
	keys := []jose.JSONWebKey{}
	for _, raw := range set.Keys {
		var key jose.JSONWebKey
		if key.UnmarshalJSON(raw) == nil { // keys of unknown types are ignored (RFC 7517 §5)
			keys = append(keys, key)
		}
	}
	k.keys, k.fetched, k.lastErr = keys, k.tried, nil
}
