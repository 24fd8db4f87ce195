package auth

import (
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
	// seen within MaxAge, which refuses a replayed proof. When full, the
	// oldest-looking entries are dropped. Zero means 100000.
	MaxReplayEntries int
	// URL returns the URL the client used for r, which the proof's "htu"
	// must match. Nil means http(s)://Host/path as the request arrived
	// (https when it came over TLS); behind a proxy that changes the
	// scheme, host or path, set it.
	URL func(r *http.Request) string
}

// dpopChecker verifies DPoP proofs.
type dpopChecker struct {
	required    bool
	algs        []jose.SignatureAlgorithm
	algNames    []string
	maxAge      time.Duration
	skew        time.Duration
	nonces      bool
	nonceKey    []byte
	nonceLife   time.Duration
	url         func(*http.Request) string
	now         func() time.Time
	replayLimit int

	mu   sync.Mutex
	seen map[[sha256.Size]byte]time.Time // proof digest → when it stops mattering
}

func newDPoPChecker(o *DPoPOptions, skew time.Duration, now func() time.Time) (*dpopChecker, error) {
	d := &dpopChecker{required: o.Required, maxAge: o.MaxAge, skew: skew, nonces: o.RequireNonce, nonceKey: o.NonceSecret, nonceLife: o.NonceLifetime, url: o.URL, now: now, replayLimit: o.MaxReplayEntries, seen: map[[sha256.Size]byte]time.Time{}}
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
	if d.replayLimit <= 0 {
		d.replayLimit = 100000
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
	JTI    string   `json:"jti"`
	HTM    string   `json:"htm"`
	HTU    string   `json:"htu"`
	IAT    *float64 `json:"iat"`
	ATH    string   `json:"ath"`
	Nonce  string   `json:"nonce"`
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
// §7.1) and returns the thumbprint of its key, or an error code and why.
func (d *dpopChecker) check(r *http.Request, token string) (jkt, code string, err error) {
	values := r.Header.Values("DPoP")
	if len(values) != 1 {
		return "", errCodeInvalidDPoPProof, fmt.Errorf("%d DPoP headers, want 1", len(values))
	}
	p, err := parseDPoPProof(values[0], d.algs)
	if err != nil {
		return "", errCodeInvalidDPoPProof, err
	}
	now := d.now()
	ath := sha256.Sum256([]byte(token))
	var iat time.Time
	if p.IAT != nil {
		iat = time.Unix(int64(*p.IAT), 0)
	}
	switch {
	case p.JTI == "":
		return "", errCodeInvalidDPoPProof, errors.New("no jti")
	case p.HTM != r.Method:
		return "", errCodeInvalidDPoPProof, fmt.Errorf("htm %q, request method %s", p.HTM, r.Method)
	case !sameHTU(p.HTU, d.url(r)):
		return "", errCodeInvalidDPoPProof, fmt.Errorf("htu %q, request URL %s", p.HTU, d.url(r))
	case p.IAT == nil:
		return "", errCodeInvalidDPoPProof, errors.New("no iat")
	case iat.Before(now.Add(-d.maxAge-d.skew)) || iat.After(now.Add(d.skew)):
		return "", errCodeInvalidDPoPProof, fmt.Errorf("iat %v outside the accepted window", iat)
	case p.ATH != base64.RawURLEncoding.EncodeToString(ath[:]):
		return "", errCodeInvalidDPoPProof, errors.New("ath does not match the access token")
	case d.nonces && !d.validNonce(p.Nonce, now):
		return "", errCodeUseDPoPNonce, errors.New("no current nonce")
	}
	if !d.remember(p.digest, iat.Add(d.maxAge+2*d.skew), now) {
		return "", errCodeInvalidDPoPProof, errors.New("proof replayed (jti seen)")
	}
	return p.jkt, "", nil
}

// remember records a proof until it would be refused as stale anyway;
// false when it was already recorded.
func (d *dpopChecker) remember(digest [sha256.Size]byte, until, now time.Time) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if t, ok := d.seen[digest]; ok && now.Before(t) {
		return false
	}
	if len(d.seen) >= d.replayLimit {
		for k, t := range d.seen {
			if !now.Before(t) {
				delete(d.seen, k)
			}
		}
		for k := range d.seen {
			if len(d.seen) < d.replayLimit {
				break
			}
			delete(d.seen, k)
		}
	}
	d.seen[digest] = until
	return true
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
