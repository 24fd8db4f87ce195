package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// DefaultAlgorithms are the signature algorithms JWTVerifier accepts when
// JWTOptions.Algorithms is nil: every asymmetric JWS algorithm. HMAC
// algorithms and "none" are never accepted.
var DefaultAlgorithms = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// asymmetric is the allow-list options are checked against: a copy, so
// that changing DefaultAlgorithms cannot let HMAC or "none" in.
var asymmetric = slices.Clone(DefaultAlgorithms)

// signatureAlgorithms checks names against asymmetric (nil means
// DefaultAlgorithms) and converts them; what names the option in errors.
func signatureAlgorithms(what string, names []string) ([]string, []jose.SignatureAlgorithm, error) {
	if names == nil {
		names = DefaultAlgorithms
	}
	var algs []jose.SignatureAlgorithm
	for _, n := range names {
		if !slices.Contains(asymmetric, n) {
			return nil, nil, fmt.Errorf("auth: %s: algorithm %q is not accepted (only asymmetric signatures: %s)", what, n, strings.Join(asymmetric, ", "))
		}
		algs = append(algs, jose.SignatureAlgorithm(n))
	}
	if len(algs) == 0 {
		return nil, nil, fmt.Errorf("auth: %s is empty", what)
	}
	return names, algs, nil
}

// Defaults of JWTOptions' key set fetching.
const (
	// DefaultMinRefetchInterval is JWTOptions.MinRefetchInterval when
	// zero: ten seconds, as Keycloak's adapters wait.
	DefaultMinRefetchInterval = 10 * time.Second
	// DefaultFetchRetryInterval is JWTOptions.FetchRetryInterval when
	// zero.
	DefaultFetchRetryInterval = time.Second
)

// JWTOptions configures NewJWTVerifier.
type JWTOptions struct {
	// Issuer is the authorization server's issuer identifier, which
	// tokens must carry as "iss" exactly. Its key set is found through
	// its metadata (RFC 8414, or OpenID Connect Discovery) unless JWKSURL
	// is set. It must be an https URL, or http for a loopback host.
	// Required.
	Issuer string
	// Audience is this resource's identifier, which tokens must carry in
	// "aud" (RFC 8707): usually the MCP endpoint's canonical URL, but
	// whatever the authorization server puts there (Entra, for one, uses
	// the application ID URI). Compared exactly. Required.
	Audience string
	// JWKSURL is the issuer's key set, when it is not to be discovered.
	JWKSURL string
	// Algorithms restricts the accepted signature algorithms. Nil means
	// DefaultAlgorithms; HMAC algorithms and "none" are refused.
	Algorithms []string
	// ClockSkew is tolerated when checking "exp", "nbf" and "iat". Zero
	// means DefaultClockSkew; negative means none.
	ClockSkew time.Duration
	// RequireJWTAccessTokenType accepts only tokens whose "typ" header is
	// "at+jwt" (RFC 9068 §4). By default "JWT" and a missing typ are
	// accepted too, as many issuers send them; other types never are.
	RequireJWTAccessTokenType bool
	// AllowMissingSubject accepts tokens without "sub", which RFC 9068
	// §2.2 requires and which are refused by default (401, wrapping
	// ErrNoSubject). Some issuers leave it out of client-credentials
	// tokens. Such a token must name its client (client_id, azp, cid or
	// appid) and then stands for that client: TokenInfo.Subject is empty
	// and TokenInfo.Principal is the issuer and client. So EVERY token
	// without "sub" of one client is ONE principal, sharing its sessions,
	// tasks and requestState: set it only when each such client is one
	// caller.
	AllowMissingSubject bool
	// KeySetTTL is how long a fetched key set is used before it is
	// fetched again (started by the next token; tokens signed by a cached
	// key keep using the cached set meanwhile, and if the fetch fails).
	// Zero means an hour.
	KeySetTTL time.Duration
	// MinRefetchInterval is the least time between two fetches of the
	// key set, however many tokens name unknown keys: a key the issuer
	// just published (a rotation) is accepted this long after the last
	// fetch at worst, and a flood of tokens naming unknown keys costs
	// one fetch per interval. Zero means DefaultMinRefetchInterval;
	// negative means no limit (a fetch per token naming an unknown key,
	// one at a time).
	MinRefetchInterval time.Duration
	// FetchRetryInterval is how soon a failed fetch is tried again while
	// no keys are held (the first fetch failed): the wait doubles with
	// each further failure, up to MinRefetchInterval, so tokens are
	// accepted soon after the issuer recovers. Once keys are held, a
	// failed refetch keeps them and is retried after MinRefetchInterval.
	// Zero means DefaultFetchRetryInterval; negative means no wait.
	FetchRetryInterval time.Duration
	// HTTPClient fetches the metadata and key set. Nil means a client
	// with a 10-second timeout. Its timeout bounds each fetch: give it
	// one (a fetch runs in a goroutine of its own, which ends with it).
	HTTPClient *http.Client
	// now is the clock; tests set it.
	now func() time.Time
}

// JWTVerifier is a TokenVerifier for JWT access tokens (RFC 9068) signed
// with the issuer's keys. It checks the signature against the issuer's key
// set (fetched on first use, cached, fetched again when a token names an
// unknown key, at most once per MinRefetchInterval), the algorithm against
// the allow-list, "iss", "aud", "exp" (required), "nbf" and "iat". It is
// safe for concurrent use. The key set is fetched in a goroutine of its
// own, one fetch at a time, which ends when the fetch does (bounded by
// the HTTP client's timeout); requests whose key is cached never wait for
// it.
type JWTVerifier struct {
	issuer   string
	audience string
	algs     []jose.SignatureAlgorithm
	skew     time.Duration
	strict   bool
	noSub    bool // AllowMissingSubject
	keys     *keySet
	now      func() time.Time
	opts     JWTOptions // as given, for Protect to apply the server's settings to
}

// NewJWTVerifier returns a verifier for tokens issued by opts.Issuer for
// opts.Audience. It does no network I/O: the issuer's metadata and keys
// are fetched by the first Verify. It returns an error when an option is
// invalid.
func NewJWTVerifier(opts JWTOptions) (*JWTVerifier, error) {
	if _, err := checkServerURL("issuer", opts.Issuer); err != nil {
		return nil, err
	}
	if opts.Audience == "" {
		return nil, errors.New("auth: JWTOptions.Audience is required")
	}
	if opts.JWKSURL != "" {
		if _, err := checkServerURL("JWKS URL", opts.JWKSURL); err != nil {
			return nil, err
		}
	}
	_, algs, err := signatureAlgorithms("JWTOptions.Algorithms", opts.Algorithms)
	if err != nil {
		return nil, err
	}
	v := &JWTVerifier{issuer: opts.Issuer, audience: opts.Audience, algs: algs, skew: opts.ClockSkew, strict: opts.RequireJWTAccessTokenType, noSub: opts.AllowMissingSubject, now: opts.now, opts: opts}
	if v.skew == 0 {
		v.skew = DefaultClockSkew
	} else if v.skew < 0 {
		v.skew = 0
	}
	if v.now == nil {
		v.now = time.Now
	}
	ks := &keySet{client: opts.HTTPClient, issuer: opts.Issuer, jwksURL: opts.JWKSURL, ttl: opts.KeySetTTL, minInterval: opts.MinRefetchInterval, retryMin: opts.FetchRetryInterval, now: v.now}
	if ks.client == nil {
		ks.client = defaultHTTPClient
	}
	if ks.ttl <= 0 {
		ks.ttl = time.Hour
	}
	if ks.minInterval == 0 {
		ks.minInterval = DefaultMinRefetchInterval
	} else if ks.minInterval < 0 {
		ks.minInterval = 0
	}
	if ks.retryMin == 0 {
		ks.retryMin = DefaultFetchRetryInterval
	} else if ks.retryMin < 0 {
		ks.retryMin = 0
	}
	v.keys = ks
	return v, nil
}

// jwtClaims are the claims TokenInfo names beyond the registered ones.
type jwtClaims struct {
	Scope    string `json:"scope"`
	Scp      any    `json:"scp"`
	ClientID string `json:"client_id"`
	AZP      string `json:"azp"`
	CID      string `json:"cid"`   // Okta
	AppID    string `json:"appid"` // Entra ID v1 tokens
	Cnf      struct {
		JKT string `json:"jkt"`
	} `json:"cnf"`
}

// Verify checks token and returns its information. Errors wrap
// ErrInvalidToken, or ErrUnavailable when the issuer's metadata or keys
// cannot be fetched. req is not used.
func (v *JWTVerifier) Verify(ctx context.Context, token string, _ *http.Request) (*TokenInfo, error) {
	tok, err := jwt.ParseSigned(token, v.algs)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	hdr := tok.Headers[0]
	if err := v.checkType(hdr); err != nil {
		return nil, err
	}
	keys, err := v.keys.lookup(ctx, hdr.KeyID)
	if err != nil {
		return nil, err
	}
	var (
		std   jwt.Claims
		extra jwtClaims
		raw   map[string]any
	)
	verified := false
	for _, key := range keys {
		if key.Algorithm != "" && key.Algorithm != hdr.Algorithm {
			continue
		}
		if tok.Claims(key.Key, &std, &extra, &raw) == nil {
			verified = true
			break
		}
	}
	if !verified {
		return nil, fmt.Errorf("%w: signature not made by any of the issuer's keys", ErrInvalidToken)
	}
	if std.Expiry == nil {
		return nil, fmt.Errorf("%w: no exp claim", ErrInvalidToken)
	}
	now := v.now()
	if err := std.ValidateWithLeeway(jwt.Expected{Issuer: v.issuer, AnyAudience: jwt.Audience{v.audience}, Time: now}, v.skew); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	info := &TokenInfo{
		Subject:         std.Subject,
		ClientID:        extra.ClientID,
		Issuer:          std.Issuer,
		Audience:        std.Audience,
		Scopes:          scopes(extra.Scope, extra.Scp),
		ID:              std.ID,
		ConfirmationJKT: extra.Cnf.JKT,
		Claims:          raw,
		Expiry:          std.Expiry.Time(),
	}
	for _, id := range []string{extra.AZP, extra.CID, extra.AppID} {
		if info.ClientID == "" {
			info.ClientID = id
		}
	}
	if std.NotBefore != nil {
		info.NotBefore = std.NotBefore.Time()
	}
	if std.IssuedAt != nil {
		info.IssuedAt = std.IssuedAt.Time()
	}
	if err := checkSubject(info, v.noSub); err != nil {
		return nil, err
	}
	return info, nil
}

// checkType accepts the JOSE "typ" of an access token: "at+jwt" or
// "application/at+jwt" (RFC 9068 §4), and unless strict also "JWT" or
// none. Other types (an ID token's, a DPoP proof's) are refused.
func (v *JWTVerifier) checkType(hdr jose.Header) error {
	typ, _ := hdr.ExtraHeaders[jose.HeaderType].(string)
	switch t := strings.ToLower(typ); {
	case t == "at+jwt" || t == "application/at+jwt":
		return nil
	case !v.strict && (t == "" || t == "jwt"):
		return nil
	}
	return fmt.Errorf("%w: token type %q is not an access token", ErrInvalidToken, typ)
}

// scopes reads the "scope" claim (space-separated, RFC 9068 §2.2.3) or,
// without it, "scp" (a string or an array, as some issuers send it).
func scopes(scope string, scp any) []string {
	if scope != "" {
		return strings.Fields(scope)
	}
	switch s := scp.(type) {
	case string:
		return strings.Fields(s)
	case []any:
		var out []string
		for _, e := range s {
			if str, ok := e.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}
