package oauthserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/ory/fosite"

	"github.com/fastmcp-go/fastmcp/store"
)

// session is what a grant knows of its user: fosite's Session, kept as
// JSON in the store.
type session struct {
	Subject string                         `json:"sub"`
	Name    string                         `json:"name,omitempty"`
	Claims  map[string]any                 `json:"claims,omitempty"`
	JKT     string                         `json:"jkt,omitempty"` // the DPoP key the grant is bound to
	Expires map[fosite.TokenType]time.Time `json:"exp,omitempty"`
}

func (s *session) SetExpiresAt(key fosite.TokenType, exp time.Time) {
	if s.Expires == nil {
		s.Expires = map[fosite.TokenType]time.Time{}
	}
	s.Expires[key] = exp
}

func (s *session) GetExpiresAt(key fosite.TokenType) time.Time { return s.Expires[key] }
func (s *session) GetUsername() string                         { return s.Name }
func (s *session) GetSubject() string                          { return s.Subject }

func (s *session) Clone() fosite.Session {
	if s == nil {
		return nil
	}
	c := *s
	c.Expires = make(map[fosite.TokenType]time.Time, len(s.Expires))
	for k, v := range s.Expires {
		c.Expires[k] = v
	}
	return &c
}

// storedRequest is a fosite Requester as kept in the store.
type storedRequest struct {
	ID                string          `json:"id"`
	RequestedAt       time.Time       `json:"at"`
	ClientID          string          `json:"client_id"`
	RequestedScope    []string        `json:"rscope,omitempty"`
	GrantedScope      []string        `json:"scope,omitempty"`
	RequestedAudience []string        `json:"raud,omitempty"`
	GrantedAudience   []string        `json:"aud,omitempty"`
	Form              url.Values      `json:"form,omitempty"`
	Session           json.RawMessage `json:"session"`
	AccessSignature   string          `json:"at_sig,omitempty"` // refresh tokens: their access token's
}

// storage is fosite's storage over a store.KV: the key prefixes below,
// under "oauthserver:". Codes and refresh tokens are single-use through
// KV.Take, so that of two replicas redeeming one, one wins.
type storage struct {
	kv      store.KV
	clients *clients
	cfg     *Config
}

const (
	keyCode      = "oauthserver:code:"       // code signature → request (kept for reuse detection)
	keyCodeLive  = "oauthserver:code-live:"  // code signature → "1" until redeemed
	keyPKCE      = "oauthserver:pkce:"       // code signature → request
	keyAccess    = "oauthserver:at:"         // access token signature → request
	keyRefresh   = "oauthserver:rt:"         // refresh token signature → request
	keyRefLive   = "oauthserver:rt-live:"    // refresh token signature → "1" until rotated
	keyRevokedRT = "oauthserver:revoked-rt:" // grant ID → "1": its refresh tokens are revoked
	keyRevokedAT = "oauthserver:revoked-at:" // grant ID → unix nanoseconds: its access tokens issued before are revoked
)

func (s *storage) put(ctx context.Context, key string, r fosite.Requester, accessSig string, ttl time.Duration) error {
	sess, err := json.Marshal(r.GetSession())
	if err != nil {
		return fmt.Errorf("oauthserver: encoding a session: %w", err)
	}
	b, err := json.Marshal(storedRequest{
		ID: r.GetID(), RequestedAt: r.GetRequestedAt(), ClientID: r.GetClient().GetID(),
		RequestedScope: r.GetRequestedScopes(), GrantedScope: r.GetGrantedScopes(),
		RequestedAudience: r.GetRequestedAudience(), GrantedAudience: r.GetGrantedAudience(),
		Form: r.GetRequestForm(), Session: sess, AccessSignature: accessSig,
	})
	if err != nil {
		return fmt.Errorf("oauthserver: encoding a request: %w", err)
	}
	return s.kv.Set(ctx, key, b, ttl)
}

// get loads the request at key into sess (a new session when nil).
func (s *storage) get(ctx context.Context, key string, sess fosite.Session) (*fosite.Request, *storedRequest, error) {
	b, err := s.kv.Get(ctx, key)
	if errors.Is(err, store.ErrKeyNotFound) {
		return nil, nil, fosite.ErrNotFound
	} else if err != nil {
		return nil, nil, err
	}
	var sr storedRequest
	if err := json.Unmarshal(b, &sr); err != nil {
		return nil, nil, fmt.Errorf("oauthserver: decoding a request: %w", err)
	}
	cl, err := s.clients.GetClient(ctx, sr.ClientID)
	if err != nil {
		return nil, nil, err
	}
	if sess == nil {
		sess = &session{}
	}
	if err := json.Unmarshal(sr.Session, sess); err != nil {
		return nil, nil, fmt.Errorf("oauthserver: decoding a session: %w", err)
	}
	return &fosite.Request{
		ID: sr.ID, RequestedAt: sr.RequestedAt, Client: cl,
		RequestedScope: sr.RequestedScope, GrantedScope: sr.GrantedScope,
		RequestedAudience: sr.RequestedAudience, GrantedAudience: sr.GrantedAudience,
		Form: sr.Form, Session: sess,
	}, &sr, nil
}

// GetClient implements fosite.ClientManager.
func (s *storage) GetClient(ctx context.Context, id string) (fosite.Client, error) {
	return s.clients.GetClient(ctx, id)
}

// ClientAssertionJWTValid is never called: clients authenticate with
// secrets or not at all.
func (s *storage) ClientAssertionJWTValid(context.Context, string) error { return nil }

// SetClientAssertionJWT is never called (see ClientAssertionJWTValid).
func (s *storage) SetClientAssertionJWT(context.Context, string, time.Time) error { return nil }

// codeKeepTTL is how long a code's request is kept after redemption: as
// long as the grant's tokens live, so that a second redemption revokes
// them.
func (s *storage) codeKeepTTL() time.Duration {
	return max(s.cfg.CodeTTL, s.cfg.AccessTokenTTL, s.cfg.RefreshTokenTTL)
}

func (s *storage) CreateAuthorizeCodeSession(ctx context.Context, sig string, r fosite.Requester) error {
	if err := s.put(ctx, keyCode+sig, r, "", s.codeKeepTTL()); err != nil {
		return err
	}
	return s.kv.Set(ctx, keyCodeLive+sig, []byte("1"), s.cfg.CodeTTL)
}

func (s *storage) GetAuthorizeCodeSession(ctx context.Context, sig string, sess fosite.Session) (fosite.Requester, error) {
	r, _, err := s.get(ctx, keyCode+sig, sess)
	if err != nil {
		return nil, err
	}
	if _, err := s.kv.Get(ctx, keyCodeLive+sig); errors.Is(err, store.ErrKeyNotFound) {
		return r, fosite.ErrInvalidatedAuthorizeCode
	} else if err != nil {
		return nil, err
	}
	return r, nil
}

// InvalidateAuthorizeCodeSession takes the code's live mark: of two
// concurrent redemptions, the second fails here and revokes the grant.
func (s *storage) InvalidateAuthorizeCodeSession(ctx context.Context, sig string) error {
	_, err := s.kv.Take(ctx, keyCodeLive+sig)
	if errors.Is(err, store.ErrKeyNotFound) {
		if r, _, gerr := s.get(ctx, keyCode+sig, nil); gerr == nil {
			s.revokeGrant(ctx, r.GetID())
		}
		return fosite.ErrInvalidatedAuthorizeCode
	}
	return err
}

func (s *storage) CreatePKCERequestSession(ctx context.Context, sig string, r fosite.Requester) error {
	return s.put(ctx, keyPKCE+sig, r, "", s.cfg.CodeTTL)
}

func (s *storage) GetPKCERequestSession(ctx context.Context, sig string, sess fosite.Session) (fosite.Requester, error) {
	r, _, err := s.get(ctx, keyPKCE+sig, sess)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (s *storage) DeletePKCERequestSession(ctx context.Context, sig string) error {
	return s.kv.Delete(ctx, keyPKCE+sig)
}

func (s *storage) CreateAccessTokenSession(ctx context.Context, sig string, r fosite.Requester) error {
	return s.put(ctx, keyAccess+sig, r, "", s.cfg.AccessTokenTTL+time.Minute)
}

func (s *storage) GetAccessTokenSession(ctx context.Context, sig string, sess fosite.Session) (fosite.Requester, error) {
	r, _, err := s.get(ctx, keyAccess+sig, sess)
	if err != nil {
		return nil, err
	}
	b, err := s.kv.Get(ctx, keyRevokedAT+r.GetID())
	if err == nil {
		if at, perr := strconv.ParseInt(string(b), 10, 64); perr == nil && !r.GetRequestedAt().After(time.Unix(0, at)) {
			return r, fosite.ErrInactiveToken
		}
	} else if !errors.Is(err, store.ErrKeyNotFound) {
		return nil, err
	}
	return r, nil
}

func (s *storage) DeleteAccessTokenSession(ctx context.Context, sig string) error {
	return s.kv.Delete(ctx, keyAccess+sig)
}

func (s *storage) CreateRefreshTokenSession(ctx context.Context, sig, accessSig string, r fosite.Requester) error {
	if err := s.put(ctx, keyRefresh+sig, r, accessSig, s.cfg.RefreshTokenTTL); err != nil {
		return err
	}
	return s.kv.Set(ctx, keyRefLive+sig, []byte("1"), s.cfg.RefreshTokenTTL)
}

// GetRefreshTokenSession returns the request with ErrInactiveToken when
// the token was rotated or its grant revoked: fosite then revokes the
// grant (reuse detection).
func (s *storage) GetRefreshTokenSession(ctx context.Context, sig string, sess fosite.Session) (fosite.Requester, error) {
	r, _, err := s.get(ctx, keyRefresh+sig, sess)
	if err != nil {
		return nil, err
	}
	revoked, err := s.exists(ctx, keyRevokedRT+r.GetID())
	if err != nil {
		return nil, err
	}
	live, err := s.exists(ctx, keyRefLive+sig)
	if err != nil {
		return nil, err
	}
	if revoked || !live {
		return r, fosite.ErrInactiveToken
	}
	return r, nil
}

func (s *storage) DeleteRefreshTokenSession(ctx context.Context, sig string) error {
	return errors.Join(s.kv.Delete(ctx, keyRefresh+sig), s.kv.Delete(ctx, keyRefLive+sig))
}

// RotateRefreshToken takes the live mark of the refresh token being
// redeemed: of two concurrent redemptions, the second fails here, and the
// grant is revoked, as for any reuse.
func (s *storage) RotateRefreshToken(ctx context.Context, requestID, sig string) error {
	_, err := s.kv.Take(ctx, keyRefLive+sig)
	if errors.Is(err, store.ErrKeyNotFound) {
		s.revokeGrant(ctx, requestID)
		return fosite.ErrInactiveToken
	}
	return err
}

// RevokeRefreshToken revokes every refresh token of the grant, for good.
func (s *storage) RevokeRefreshToken(ctx context.Context, requestID string) error {
	return s.kv.Set(ctx, keyRevokedRT+requestID, []byte("1"), s.codeKeepTTL())
}

// RevokeAccessToken revokes the grant's access tokens issued so far.
func (s *storage) RevokeAccessToken(ctx context.Context, requestID string) error {
	now := time.Now().UnixNano() // fosite's RequestedAt is time.Now too
	return s.kv.Set(ctx, keyRevokedAT+requestID, []byte(strconv.FormatInt(now, 10)), s.cfg.AccessTokenTTL+time.Minute)
}

// exists reports whether key has a value.
func (s *storage) exists(ctx context.Context, key string) (bool, error) {
	_, err := s.kv.Get(ctx, key)
	if errors.Is(err, store.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil, err
}

// revokeGrant revokes every token of a grant, logging a failure.
func (s *storage) revokeGrant(ctx context.Context, requestID string) {
	if err := errors.Join(s.RevokeRefreshToken(ctx, requestID), s.RevokeAccessToken(ctx, requestID)); err != nil {
		s.cfg.Logger.Error("oauthserver: revoking a grant", "error", err)
	}
}
