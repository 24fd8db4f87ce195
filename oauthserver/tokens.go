package oauthserver

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"time"

	"github.com/ory/fosite"
)

// opaqueStrategy makes codes and refresh tokens: random strings, stored
// under their SHA-256 (their "signature"), so that the store never holds
// one that works.
type opaqueStrategy struct {
	prefix   string // "mcp_code_", "mcp_rt_"
	kind     fosite.TokenType
	lifespan time.Duration
}

func (o opaqueStrategy) generate() (string, string) {
	token := o.prefix + randomString(32)
	return token, o.signature(token)
}

func (o opaqueStrategy) signature(token string) string {
	sum := sha256.Sum256([]byte(token))
	return b64(sum[:])
}

func (o opaqueStrategy) validate(r fosite.Requester, token string) error {
	if !strings.HasPrefix(token, o.prefix) {
		return fosite.ErrInvalidTokenFormat
	}
	exp := r.GetSession().GetExpiresAt(o.kind)
	if exp.IsZero() {
		exp = r.GetRequestedAt().Add(o.lifespan)
	}
	if time.Now().UTC().After(exp) {
		return fmt.Errorf("%w: %s expired at %s", fosite.ErrTokenExpired, o.kind, exp)
	}
	return nil
}

// codeStrategy is fosite's AuthorizeCodeStrategy.
type codeStrategy struct{ opaqueStrategy }

func (c codeStrategy) AuthorizeCodeSignature(_ context.Context, token string) string {
	return c.signature(token)
}

func (c codeStrategy) GenerateAuthorizeCode(context.Context, fosite.Requester) (string, string, error) {
	t, s := c.generate()
	return t, s, nil
}

func (c codeStrategy) ValidateAuthorizeCode(_ context.Context, r fosite.Requester, token string) error {
	return c.validate(r, token)
}

// refreshStrategy is fosite's RefreshTokenStrategy.
type refreshStrategy struct{ opaqueStrategy }

func (c refreshStrategy) RefreshTokenSignature(_ context.Context, token string) string {
	return c.signature(token)
}

func (c refreshStrategy) GenerateRefreshToken(context.Context, fosite.Requester) (string, string, error) {
	t, s := c.generate()
	return t, s, nil
}

func (c refreshStrategy) ValidateRefreshToken(_ context.Context, r fosite.Requester, token string) error {
	return c.validate(r, token)
}

// accessStrategy is fosite's AccessTokenStrategy: RFC 9068 JWTs signed by
// the key ring; the signature part is the token's key in the store.
type accessStrategy struct {
	issuer string
	keys   *keyRing
}

// registeredClaims cannot be set by User.Claims.
var registeredClaims = map[string]bool{
	"iss": true, "sub": true, "aud": true, "exp": true, "iat": true, "nbf": true,
	"jti": true, "client_id": true, "scope": true, "cnf": true,
}

// jktKey is the context key of the DPoP key thumbprint of a token request.
type jktKey struct{}

func (a *accessStrategy) AccessTokenSignature(_ context.Context, token string) string {
	if i := strings.LastIndexByte(token, '.'); i >= 0 {
		return token[i+1:]
	}
	return ""
}

func (a *accessStrategy) GenerateAccessToken(ctx context.Context, r fosite.Requester) (string, string, error) {
	sess, ok := r.GetSession().(*session)
	if !ok {
		return "", "", fmt.Errorf("oauthserver: unexpected session %T", r.GetSession())
	}
	if jkt, _ := ctx.Value(jktKey{}).(string); jkt != "" {
		sess.JKT = jkt // binds the grant: its refresh tokens need the same key
	}
	claims := map[string]any{}
	for k, v := range sess.Claims {
		if !registeredClaims[k] {
			claims[k] = v
		}
	}
	now := time.Now()
	exp := sess.GetExpiresAt(fosite.AccessToken)
	if exp.IsZero() {
		exp = now.Add(time.Hour)
	}
	claims["iss"] = a.issuer
	claims["sub"] = sess.Subject
	claims["client_id"] = r.GetClient().GetID()
	claims["iat"] = now.Unix()
	claims["exp"] = exp.Unix()
	claims["jti"] = randomString(16)
	if aud := r.GetGrantedAudience(); len(aud) == 1 {
		claims["aud"] = aud[0]
	} else if len(aud) > 1 {
		claims["aud"] = []string(aud)
	}
	if sc := r.GetGrantedScopes(); len(sc) > 0 {
		claims["scope"] = strings.Join(sc, " ")
	}
	if sess.JKT != "" {
		claims["cnf"] = map[string]string{"jkt": sess.JKT}
	}
	sk, err := a.keys.current(ctx)
	if err != nil {
		return "", "", err
	}
	token, err := signJWT(sk, "at+jwt", claims)
	if err != nil {
		return "", "", err
	}
	return token, a.AccessTokenSignature(ctx, token), nil
}

func (a *accessStrategy) ValidateAccessToken(ctx context.Context, _ fosite.Requester, token string) error {
	var claims struct {
		Exp int64 `json:"exp"`
	}
	if err := a.keys.verifyJWT(ctx, token, &claims); err != nil {
		return fmt.Errorf("%w: %w", fosite.ErrInvalidTokenFormat, err)
	}
	if time.Now().Unix() >= claims.Exp {
		return fosite.ErrTokenExpired
	}
	return nil
}
