package auth

import (
	"container/heap"
	"crypto"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// DPoP error codes (RFC 9449 §7.1, §9).
const (
	errCodeInvalidDPoPProof = "invalid_dpop_proof"
	errCodeUseDPoPNonce     = "use_dpop_nonce"
)

// DPoPOptions turns on DPoP (RFC 9449) in RequireBearerToken: requests
// may present a DPoP-bound access token as "Authorization: DPoP <token>"
// with a proof in the DPoP header, signed by the key the token is bound to
// ("cnf.jkt").
type DPoPOptions struct {
	// Required refuses plain bearer tokens: only DPoP-bound tokens with a
	// proof are accepted (dpop_bound_access_tokens_required in the
	// metadata).
	Required bool
	// Algorithms are the proof signature algorithms accepted, advertised
	// in the challenge's algs. Nil means DefaultAlgorithms; HMAC and
	// "none" are refused.
	Algorithms []string
	// MaxAge is how old a proof's "iat" may be. Zero means five minutes.
	// (BearerOptions.ClockSkew is allowed on both sides.)
	MaxAge time.Duration
	// RequireNonce makes the server supply nonces (RFC 9449 §9): a proof
	// without a current one gets 401 error="use_dpop_nonce" and a
	// DPoP-Nonce header to retry with; accepted requests get a fresh
	// DPoP-Nonce too. It also bounds how long a captured proof is useful.
	RequireNonce bool
	// NonceSecret keys the nonces, so any replica sharing it accepts
	// another's. Nil means a random secret per process.
	NonceSecret []byte
	// NonceLifetime is how long a nonce is accepted. Zero means five
	// minutes.
	NonceLifetime time.Duration
	// MaxReplayEntries bounds the memory of proof identifiers ("jti")
	// that refuses a replayed proof. A proof is remembered only once its
	// token verified and is bound to the proof's key, so only holders of
	// valid tokens fill it, and only until the proof would be refused as
	// stale anyway (its iat plus MaxAge and the clock skew). When every
	// entry is still live, a new proof is refused with 503 Service
	// Unavailable and a Retry-After header (until the oldest entry
	// expires) rather than a live entry forgotten, which would let its
	// proof be replayed. Size it above the DPoP requests expected within
	// MaxAge plus twice the clock skew. Zero means 100000.
	MaxReplayEntries int
	// URL returns the URL the client used for r, which the proof's "htu"
	// must match. Nil means http(s)://Host/path as the request arrived
	// (https when it came over TLS); behind a proxy that changes the
	// scheme, host or path, set it.
	URL func(r *http.Request) string
}

// dpopChecker verifies DPoP proofs.
type dpopChecker struct {
	required  bool
	algs      []jose.SignatureAlgorithm
	algNames  []string
	maxAge    time.Duration
	skew      time.Duration
	nonces    bool
	nonceKey  []byte
	nonceLife time.Duration
	url       func(*http.Request) string
	now       func() time.Time

	replay replayCache
}

func newDPoPChecker(o *DPoPOptions, skew time.Duration, now func() time.Time) (*dpopChecker, error) {
	d := &dpopChecker{required: o.Required, maxAge: o.MaxAge, skew: skew, nonces: o.RequireNonce, nonceKey: o.NonceSecret, nonceLife: o.NonceLifetime, url: o.URL, now: now}
	d.replay.limit = o.MaxReplayEntries
	var err error
	if d.algNames, d.algs, err = signatureAlgorithms("DPoPOptions.Algorithms", o.Algorithms); err != nil {
		return nil, err
	}
	if d.maxAge <= 0 {
		d.maxAge = 5 * time.Minute
	}
	if d.nonceLife <= 0 {
		d.nonceLife = 5 * time.Minute
	}
	if d.nonceKey == nil {
		d.nonceKey = make([]byte, 32)
		if _, err := rand.Read(d.nonceKey); err != nil {
			return nil, fmt.Errorf("auth: DPoP nonce secret: %w", err)
		}
	}
	if d.replay.limit <= 0 {
		d.replay.limit = 100000
	}
	if d.url == nil {
		d.url = requestURL
	}
	return d, nil
}

func requestURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + r.URL.EscapedPath()
}

// dpopProof is a parsed and signature-checked DPoP proof.
type dpopProof struct {
	jkt    string // base64url SHA-256 thumbprint of the proof's key
	digest [sha256.Size]byte
	until  time.Time // end of its acceptance window, set by check
	JTI    string    `json:"jti"`
	HTM    string    `json:"htm"`
	HTU    string    `json:"htu"`
	IAT    *float64  `json:"iat"`
	ATH    string    `json:"ath"`
	Nonce  string    `json:"nonce"`
}

// parseDPoPProof parses a proof JWT and checks its header (typ dpop+jwt,
// an accepted algorithm, a public jwk) and its signature by that jwk.
func parseDPoPProof(proof string, algs []jose.SignatureAlgorithm) (*dpopProof, error) {
	jws, err := jose.ParseSignedCompact(proof, algs)
	if err != nil {
		return nil, err
	}
	hdr := jws.Signatures[0].Header
	if typ, _ := hdr.ExtraHeaders[jose.HeaderType].(string); !strings.EqualFold(typ, "dpop+jwt") {
		return nil, fmt.Errorf("typ %q, want dpop+jwt", typ)
	}
	jwk := hdr.JSONWebKey
	if jwk == nil || !jwk.IsPublic() || !jwk.Valid() {
		return nil, errors.New("no public jwk in the header")
	}
	payload, err := jws.Verify(jwk)
	if err != nil {
		return nil, err
	}
	var p dpopProof
	if err := json.Unmarshal(payload, &p); err != nil {
		return nil, err
	}
	tp, err := jwk.Thumbprint(crypto.SHA256)
	if err != nil {
		return nil, err
	}
	p.jkt = base64.RawURLEncoding.EncodeToString(tp)
	p.digest = sha256.Sum256([]byte(p.jkt + "\x00" + p.JTI))
	return &p, nil
}

// check verifies the request's DPoP proof for token (RFC 9449 §4.3,
// §7.1) and returns it, or an error code and why. It does not remember the
// proof: the caller calls remember once the token verified and is bound to
// the proof's key.
func (d *dpopChecker) check(r *http.Request, token string) (proof *dpopProof, code string, err error) {
	values := r.Header.Values("DPoP")
	if len(values) != 1 {
		return nil, errCodeInvalidDPoPProof, fmt.Errorf("%d DPoP headers, want 1", len(values))
	}
	p, err := parseDPoPProof(values[0], d.algs)
	if err != nil {
		return nil, errCodeInvalidDPoPProof, err
	}
	now := d.now()
	ath := sha256.Sum256([]byte(token))
	var iat time.Time
	if p.IAT != nil {
		iat = time.Unix(int64(*p.IAT), 0)
	}
	switch {
	case p.JTI == "":
		return nil, errCodeInvalidDPoPProof, errors.New("no jti")
	case p.HTM != r.Method:
		return nil, errCodeInvalidDPoPProof, fmt.Errorf("htm %q, request method %s", p.HTM, r.Method)
	case !sameHTU(p.HTU, d.url(r)):
		return nil, errCodeInvalidDPoPProof, fmt.Errorf("htu %q, request URL %s", p.HTU, d.url(r))
	case p.IAT == nil:
		return nil, errCodeInvalidDPoPProof, errors.New("no iat")
	case iat.Before(now.Add(-d.maxAge-d.skew)) || iat.After(now.Add(d.skew)):
		return nil, errCodeInvalidDPoPProof, fmt.Errorf("iat %v outside the accepted window", iat)
	case p.ATH != base64.RawURLEncoding.EncodeToString(ath[:]):
		return nil, errCodeInvalidDPoPProof, errors.New("ath does not match the access token")
	case d.nonces && !d.validNonce(p.Nonce, now):
		return nil, errCodeUseDPoPNonce, errors.New("no current nonce")
	}
	// The last instant the iat check above accepts this proof.
	p.until = iat.Add(d.maxAge + d.skew)
	return p, "", nil
}

// errReplayed and errReplayCacheFull are remember's refusals.
var (
	errReplayed        = errors.New("DPoP proof replayed (jti seen)")
	errReplayCacheFull = errors.New("DPoP replay cache full of live proofs (DPoPOptions.MaxReplayEntries)")
)

// remember records p's jti until p would be refused as stale anyway. It
// returns errReplayed when the proof was seen within that time, or
// errReplayCacheFull and how long until an entry expires.
func (d *dpopChecker) remember(p *dpopProof) (retryAfter time.Duration, err error) {
	return d.replay.add(p.digest, p.until, d.now())
}

// replayCache remembers proof digests until their proofs expire, in a
// map for lookups and a min-heap ordered by expiry for eviction: O(log n)
// per proof, expired entries dropped from the top of the heap, never a
// live one.
type replayCache struct {
	limit int

	mu    sync.Mutex
	seen  map[[sha256.Size]byte]struct{} // the digests in order
	order expiryHeap
}

func (c *replayCache) add(digest [sha256.Size]byte, until, now time.Time) (time.Duration, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = map[[sha256.Size]byte]struct{}{}
	}
	// An entry is live while now is not after its until: the proof is
	// still accepted then.
	for len(c.order) > 0 && now.After(c.order[0].until) {
		e := heap.Pop(&c.order).(expiryEntry)
		delete(c.seen, e.digest)
	}
	// Every entry left is live.
	if _, ok := c.seen[digest]; ok {
		return 0, errReplayed
	}
	if len(c.seen) >= c.limit {
		return c.order[0].until.Sub(now) + time.Second, errReplayCacheFull
	}
	c.seen[digest] = struct{}{}
	heap.Push(&c.order, expiryEntry{digest, until})
	return 0, nil
}

// sameHTU compares a proof's htu with the request URL after RFC 3986
// syntax- and scheme-based normalization (case of scheme and host, default
// port, empty path), ignoring query and fragment (RFC 9449 §4.3).
func sameHTU(htu, want string) bool {
	a, err1 := url.Parse(htu)
	b, err2 := url.Parse(want)
	if err1 != nil || err2 != nil || a.Host == "" {
		return false
	}
	norm := func(u *url.URL) string {
		scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
		if scheme == "https" && port == "443" || scheme == "http" && port == "80" {
			port = ""
		}
		if port != "" {
			host = host + ":" + port
		}
		p := u.EscapedPath()
		if p == "" {
			p = "/"
		}
		return scheme + "://" + host + p
	}
	return norm(a) == norm(b)
}

// newNonce returns a nonce: its issue time and a MAC of it.
func (d *dpopChecker) newNonce() string {
	b := binary.BigEndian.AppendUint64(nil, uint64(d.now().Unix()))
	m := hmac.New(sha256.New, d.nonceKey)
	m.Write(b)
	return base64.RawURLEncoding.EncodeToString(m.Sum(b)[:8+16])
}

func (d *dpopChecker) validNonce(nonce string, now time.Time) bool {
	b, err := base64.RawURLEncoding.DecodeString(nonce)
	if err != nil || len(b) != 8+16 {
		return false
	}
	m := hmac.New(sha256.New, d.nonceKey)
	m.Write(b[:8])
	if !hmac.Equal(m.Sum(nil)[:16], b[8:]) {
		return false
	}
	issued := time.Unix(int64(binary.BigEndian.Uint64(b[:8])), 0)
	return !issued.After(now.Add(d.skew)) && now.Sub(issued) <= d.nonceLife
}
