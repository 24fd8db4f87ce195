package auth

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/fastmcp-go/fastmcp/authinfo"
)

// DefaultClockSkew is the clock difference tolerated between this server
// and the authorization server when BearerOptions.ClockSkew,
// JWTOptions.ClockSkew or IntrospectionOptions.ClockSkew is zero.
const DefaultClockSkew = time.Minute

// BearerOptions configures RequireBearerToken.
type BearerOptions struct {
	// ResourceMetadataURL is the absolute URL of the resource's metadata
	// document (see WellKnownURL), named in every challenge so clients
	// can discover the authorization server. Required.
	ResourceMetadataURL string
	// Scopes are the scopes every request needs. They are named in the
	// scope parameter of 401 challenges, and a token without all of them
	// gets 403 insufficient_scope. Nil accepts any valid token.
	Scopes []string
	// ClockSkew is tolerated when checking the verified token's Expiry
	// and NotBefore. Zero means DefaultClockSkew; negative means none.
	ClockSkew time.Duration
	// DPoP, when set, also accepts DPoP-bound tokens (RFC 9449). Without
	// it, the DPoP scheme is not accepted, and a DPoP-bound token (one
	// with "cnf.jkt") is refused even as a bearer token.
	DPoP *DPoPOptions
	// Logger receives why tokens were refused (at Debug) and why
	// verifiers failed (at Warn). Nil logs nothing.
	Logger *slog.Logger
	// now is the clock; tests set it.
	now func() time.Time
}

// RequireBearerToken returns middleware that lets a request through only
// with a valid access token in its Authorization header (RFC 6750 §2.1;
// the scheme is matched case-insensitively). The verified TokenInfo goes
// in the request's context (TokenInfoFrom). Otherwise it answers:
//
//   - no Authorization header, or one of another scheme: 401 with
//     WWW-Authenticate: Bearer scope="…", resource_metadata="…" (scope
//     only when opts.Scopes is set);
//   - a malformed, invalid or expired token, or a DPoP-bound token sent as
//     a bearer token: 401 with error="invalid_token" added;
//   - a valid token without every one of opts.Scopes: 403 with
//     error="insufficient_scope" and scope naming opts.Scopes;
//   - a token in the query string (access_token=), or more than one
//     Authorization header: 400 with error="invalid_request";
//   - a verifier that returns ErrUnavailable: 503, no challenge.
//
// With opts.DPoP set, "Authorization: DPoP <token>" with a valid DPoP
// proof is accepted for tokens bound to the proof's key; refusals then
// carry a DPoP challenge too (WWW-Authenticate: DPoP algs="…"), and
// proof failures answer 401 with DPoP error="invalid_dpop_proof" or
// error="use_dpop_nonce" (with a DPoP-Nonce header). A proof is
// remembered (and a replay of it refused) only once its token verified and
// is bound to its key; when DPoPOptions.MaxReplayEntries proofs are all
// still live, a new one is answered 503 with Retry-After.
//
// A CORS preflight (OPTIONS with Origin and Access-Control-Request-Method)
// goes to the next handler without a token, since browsers send none
// with it; that handler answers it without a TokenInfo in the context.
//
// It panics if v is nil, opts.ResourceMetadataURL is empty, or
// opts.DPoP names an algorithm that is not asymmetric.
func RequireBearerToken(v TokenVerifier, opts *BearerOptions) func(http.Handler) http.Handler {
	if v == nil || opts == nil || opts.ResourceMetadataURL == "" {
		panic("auth: RequireBearerToken needs a TokenVerifier and BearerOptions.ResourceMetadataURL")
	}
	b := &bearer{verifier: v, metadata: opts.ResourceMetadataURL, scopes: opts.Scopes, skew: opts.ClockSkew, log: opts.Logger, now: opts.now}
	if b.skew == 0 {
		b.skew = DefaultClockSkew
	} else if b.skew < 0 {
		b.skew = 0
	}
	if b.log == nil {
		b.log = slog.New(slog.DiscardHandler)
	}
	if b.now == nil {
		b.now = time.Now
	}
	if opts.DPoP != nil {
		d, err := newDPoPChecker(opts.DPoP, b.skew, b.now)
		if err != nil {
			panic(err)
		}
		b.dpop = d
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if isPreflight(r) {
				next.ServeHTTP(w, r) // a browser's CORS preflight never carries credentials
				return
			}
			info, ok := b.check(w, r)
			if !ok {
				return
			}
			ctx := authinfo.NewContext(r.Context(), info)
			ctx = authinfo.WithChallenge(ctx, b.challengeParams()) // for WriteInsufficientScopeFor
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// isPreflight reports whether r is a CORS preflight request.
func isPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Origin") != "" && r.Header.Get("Access-Control-Request-Method") != ""
}

type bearer struct {
	verifier TokenVerifier
	metadata string
	scopes   []string
	skew     time.Duration
	log      *slog.Logger
	now      func() time.Time
	dpop     *dpopChecker
}

// check verifies the request's token; when it does not pass, check has
// answered w and returns false.
func (b *bearer) check(w http.ResponseWriter, r *http.Request) (*TokenInfo, bool) {
	if strings.Contains(r.URL.RawQuery, "access_token") && r.URL.Query().Has("access_token") {
		b.refuse(w, r, http.StatusBadRequest, false, authinfo.Challenge{Error: errCodeInvalidRequest, Description: "access tokens are not accepted in the query string"}, nil)
		return nil, false
	}
	scheme, token, err := parseAuthorization(r.Header)
	useDPoP := b.dpop != nil && scheme == "dpop"
	useBearer := scheme == "bearer" && (b.dpop == nil || !b.dpop.required)
	switch {
	case errors.Is(err, errMultipleHeaders):
		b.refuse(w, r, http.StatusBadRequest, false, authinfo.Challenge{Error: errCodeInvalidRequest}, err)
		return nil, false
	case !useBearer && !useDPoP:
		// No credentials of an accepted scheme: a challenge without an
		// error code (RFC 6750 §3.1).
		b.refuse(w, r, http.StatusUnauthorized, false, authinfo.Challenge{Scopes: b.scopes}, err)
		return nil, false
	case err != nil:
		b.refuse(w, r, http.StatusUnauthorized, useDPoP, authinfo.Challenge{Error: errCodeInvalidToken, Scopes: b.scopes}, err)
		return nil, false
	}
	var proof *dpopProof
	if useDPoP {
		var code string
		proof, code, err = b.dpop.check(r, token)
		if err != nil {
			if code == errCodeUseDPoPNonce {
				w.Header().Set("DPoP-Nonce", b.dpop.newNonce())
			}
			b.refuse(w, r, http.StatusUnauthorized, true, authinfo.Challenge{Error: code, Scopes: b.scopes}, err)
			return nil, false
		}
	}
	info, err := b.verifier.Verify(r.Context(), token, r)
	if err == nil && info == nil {
		err = errors.New("auth: verifier returned no token information")
	}
	if err == nil {
		err = b.checkInfo(info, proof)
	}
	if err == nil && proof != nil {
		// Only now, with the token verified and bound to the proof's key,
		// is the proof remembered: strangers cannot fill the cache.
		var retryAfter time.Duration
		if retryAfter, err = b.dpop.remember(proof); errors.Is(err, errReplayCacheFull) {
			b.log.WarnContext(r.Context(), "auth: DPoP proof refused", "err", err)
			w.Header().Set("Retry-After", strconv.Itoa(int(retryAfter/time.Second)))
			http.Error(w, "DPoP replay cache full, retry later", http.StatusServiceUnavailable)
			return nil, false
		} else if err != nil {
			b.refuse(w, r, http.StatusUnauthorized, true, authinfo.Challenge{Error: errCodeInvalidDPoPProof, Scopes: b.scopes}, err)
			return nil, false
		}
	}
	switch {
	case err == nil:
		if useDPoP && b.dpop.nonces {
			w.Header().Set("DPoP-Nonce", b.dpop.newNonce())
		}
		return info, true
	case errors.Is(err, ErrUnavailable):
		b.log.WarnContext(r.Context(), "auth: cannot verify token", "err", err)
		http.Error(w, "authorization server unavailable", http.StatusServiceUnavailable)
		return nil, false
	case errors.Is(err, ErrInsufficientScope):
		b.refuse(w, r, http.StatusForbidden, useDPoP, authinfo.Challenge{Error: errCodeInsufficientScope, Scopes: b.scopes}, err)
		return nil, false
	default:
		c := authinfo.Challenge{Error: errCodeInvalidToken, Scopes: b.scopes}
		if errors.Is(err, ErrNoSubject) {
			c.Description = "the access token has no subject (sub)"
		}
		b.refuse(w, r, http.StatusUnauthorized, useDPoP, c, err)
		return nil, false
	}
}

// checkInfo applies the checks every verifier's result gets: the token's
// lifetime, its binding, and the scopes every request needs.
func (b *bearer) checkInfo(info *TokenInfo, proof *dpopProof) error {
	now := b.now()
	useDPoP, proofJKT := proof != nil, ""
	if useDPoP {
		proofJKT = proof.jkt
	}
	switch {
	case !info.Expiry.IsZero() && now.After(info.Expiry.Add(b.skew)):
		return errors.Join(ErrInvalidToken, errors.New("token expired"))
	case !info.NotBefore.IsZero() && now.Add(b.skew).Before(info.NotBefore):
		return errors.Join(ErrInvalidToken, errors.New("token not yet valid"))
	case !useDPoP && info.ConfirmationJKT != "":
		// RFC 9449 §7.1: a DPoP-bound token sent as a bearer token.
		return errors.Join(ErrInvalidToken, errors.New("DPoP-bound token presented as a bearer token"))
	case useDPoP && info.ConfirmationJKT != proofJKT:
		return errors.Join(ErrInvalidToken, errors.New("token not bound to the DPoP proof's key"))
	}
	if missing := info.MissingScopes(b.scopes...); missing != nil {
		return errors.Join(ErrInsufficientScope, errors.New("missing scopes "+strings.Join(missing, " ")))
	}
	return nil
}

// refuse answers with status and the challenges: c in the scheme the
// client used (DPoP when usedDPoP) and, when DPoP is on, a DPoP challenge
// naming the accepted algorithms; the Bearer one is left out when DPoP is
// required.
func (b *bearer) refuse(w http.ResponseWriter, r *http.Request, status int, usedDPoP bool, c authinfo.Challenge, why error) {
	if why != nil {
		b.log.DebugContext(r.Context(), "auth: request refused", "status", status, "err", why)
	}
	c.ResourceMetadata = b.metadata
	h := w.Header()
	switch {
	case b.dpop == nil:
		h.Add("WWW-Authenticate", c.String())
	case usedDPoP:
		c.Scheme, c.Algs = "DPoP", b.dpop.algNames
		h.Add("WWW-Authenticate", c.String())
	default:
		if !b.dpop.required {
			h.Add("WWW-Authenticate", c.String())
		}
		h.Add("WWW-Authenticate", authinfo.Challenge{Scheme: "DPoP", Algs: b.dpop.algNames, Scopes: b.scopes, ResourceMetadata: b.metadata}.String())
	}
	http.Error(w, http.StatusText(status), status)
}
