package oauthproxy

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/fastmcp-go/fastmcp/internal/sealedstate"
	"github.com/fastmcp-go/fastmcp/oauthserver"
	"github.com/fastmcp-go/fastmcp/store"
)

// The defaults of Config.
const (
	DefaultCallbackPath = "/oauth/callback"
	DefaultLoginTimeout = 10 * time.Minute
	DefaultTokenTTL     = 30 * 24 * time.Hour
)

// Config configures NewLogin.
type Config struct {
	// Issuer is the issuer of the authorization server the Login serves
	// (oauthserver.Config.Issuer). New fills it in. Required.
	Issuer string
	// Upstream is the identity provider. Required.
	Upstream Upstream
	// Store keeps the sign-ins under way and the users' upstream tokens;
	// share it with the authorization server's (oauthserver.Config.Store)
	// so that replicas act as one. Nil: store.NewMemoryKV().
	Store store.KV
	// Keys encrypt the upstream tokens at rest. Replicas must share them,
	// and keys must stay in the ring as long as tokens sealed under them
	// are kept (TokenTTL): use store.StaticKeys, adding a new current key
	// and keeping the old ones to rotate. A ring that drops keys sooner
	// (redisstore.NewKeyRing) loses the tokens of the keys it dropped:
	// their users sign in again. Nil: a random key of this process.
	Keys store.KeyRing
	// CallbackPath is the path, under the issuer's origin, where the
	// upstream sends the browser back: register Issuer's origin followed
	// by it as the redirect URI of the upstream client. Default
	// DefaultCallbackPath.
	CallbackPath string
	// LoginTimeout bounds a sign-in at the upstream. Default
	// DefaultLoginTimeout.
	LoginTimeout time.Duration
	// TokenTTL is how long a user's upstream token is kept after the
	// sign-in (refreshing it keeps it no longer). Default DefaultTokenTTL,
	// the authorization server's default refresh token lifetime.
	TokenTTL time.Duration
	// HTTPClient talks to the upstream's token endpoint and user API. Nil:
	// http.DefaultClient.
	HTTPClient *http.Client
	// Logger receives why sign-ins failed (never tokens). Nil:
	// slog.Default().
	Logger *slog.Logger
}

// Login is an oauthserver.Login that sends the person at the browser to
// the upstream identity provider: the authorization server's clients
// never see the upstream or its tokens, only the tokens the
// authorization server issues. It keeps each user's upstream token,
// encrypted, for UpstreamToken.
type Login struct {
	cfg    Config
	oauth  oauth2.Config
	origin string // scheme://host of the issuer
	secure bool
	sealer *sealedstate.Sealer
}

var (
	_ oauthserver.Login       = (*Login)(nil)
	_ oauthserver.LoginRoutes = (*Login)(nil)
)

// NewLogin returns the Login cfg describes, or an error naming the field
// to fix.
func NewLogin(cfg Config) (*Login, error) {
	u, err := url.Parse(cfg.Issuer)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return nil, fmt.Errorf("oauthproxy: Config.Issuer %q: want the authorization server's issuer URL", cfg.Issuer)
	}
	up := cfg.Upstream
	if up.AuthURL == "" || up.TokenURL == "" || up.ClientID == "" || up.Identify == nil {
		return nil, errors.New("oauthproxy: Config.Upstream: needs AuthURL, TokenURL, ClientID and Identify (use GitHub, OIDC, Google or Entra)")
	}
	if cfg.CallbackPath == "" {
		cfg.CallbackPath = DefaultCallbackPath
	}
	if !strings.HasPrefix(cfg.CallbackPath, "/") {
		return nil, fmt.Errorf("oauthproxy: Config.CallbackPath %q: want a path starting with /", cfg.CallbackPath)
	}
	cfg.LoginTimeout = orDefault(cfg.LoginTimeout, DefaultLoginTimeout)
	cfg.TokenTTL = orDefault(cfg.TokenTTL, DefaultTokenTTL)
	if cfg.Store == nil {
		cfg.Store = store.NewMemoryKV()
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	origin := u.Scheme + "://" + u.Host
	l := &Login{cfg: cfg, origin: origin, secure: u.Scheme == "https", sealer: sealedstate.New(cfg.Keys, nil, cfg.TokenTTL)}
	l.oauth = oauth2.Config{
		ClientID: up.ClientID, ClientSecret: up.ClientSecret, Scopes: up.Scopes,
		Endpoint:    oauth2.Endpoint{AuthURL: up.AuthURL, TokenURL: up.TokenURL, AuthStyle: up.AuthStyle},
		RedirectURL: origin + cfg.CallbackPath,
	}
	return l, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// The KV keys of the Login.
const (
	keySignIn = "oauthproxy:signin:" // + state: a sign-in sent upstream
	keyDone   = "oauthproxy:done:"   // + request ID: its outcome
	keyToken  = "oauthproxy:token:"  // + principal: a user's sealed upstream token
)

// cookieName is the cookie that binds a sign-in to the browser that
// started it.
const cookieName = "oauthproxy_signin"

// signIn is a sign-in sent to the upstream, kept under its state.
type signIn struct {
	RequestID string `json:"request"`
	ReturnURL string `json:"return"`
	ClientID  string `json:"client"`
	Verifier  string `json:"verifier"` // PKCE
	Nonce     string `json:"nonce"`
	Browser   string `json:"browser"` // SHA-256 of the cookie's value
}

// outcome is how a sign-in ended, kept under the request's ID until the
// authorization server asks again.
type outcome struct {
	User  *oauthserver.User `json:"user,omitempty"`
	Error string            `json:"error,omitempty"`
}

// Login implements oauthserver.Login: it returns the user the upstream
// named when the request's sign-in ended, and otherwise sends the browser
// to the upstream.
func (l *Login) Login(w http.ResponseWriter, r *http.Request, req *oauthserver.Request) (*oauthserver.User, error) {
	ctx := r.Context()
	b, err := l.cfg.Store.Take(ctx, keyDone+req.ID)
	if err == nil {
		var o outcome
		if err := json.Unmarshal(b, &o); err != nil {
			return nil, fmt.Errorf("oauthproxy: decoding a sign-in's outcome: %w", err)
		}
		if o.User == nil {
			return nil, fmt.Errorf("oauthproxy: the sign-in at %s failed: %s", l.cfg.Upstream.Name, o.Error)
		}
		return o.User, nil
	} else if !errors.Is(err, store.ErrKeyNotFound) {
		return nil, err
	}
	browser := random()
	s := signIn{RequestID: req.ID, ReturnURL: req.ReturnURL, ClientID: req.ClientID, Verifier: oauth2.GenerateVerifier(), Nonce: random(), Browser: digest(browser)}
	state := random()
	rec, _ := json.Marshal(s)
	if err := l.cfg.Store.Set(ctx, keySignIn+state, rec, l.cfg.LoginTimeout); err != nil {
		return nil, err
	}
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: browser, Path: l.cfg.CallbackPath, MaxAge: int(l.cfg.LoginTimeout / time.Second),
		HttpOnly: true, Secure: l.secure, SameSite: http.SameSiteLaxMode,
	})
	opts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(s.Verifier), oauth2.SetAuthURLParam("nonce", s.Nonce)}
	for k, vs := range l.cfg.Upstream.AuthParams {
		for _, v := range vs {
			opts = append(opts, oauth2.SetAuthURLParam(k, v))
		}
	}
	http.Redirect(w, r, l.oauth.AuthCodeURL(state, opts...), http.StatusSeeOther)
	return nil, nil
}

// Routes implements oauthserver.LoginRoutes: the callback the upstream
// sends the browser back to.
func (l *Login) Routes() map[string]http.Handler {
	return map[string]http.Handler{l.cfg.CallbackPath: http.HandlerFunc(l.callback)}
}

// callback ends a sign-in: it checks the state and the browser, exchanges
// the code, identifies the user, keeps the upstream token and sends the
// browser back to the authorization server.
func (l *Login) callback(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	state := q.Get("state")
	expired := func(err error) {
		l.cfg.Logger.Info("oauthproxy: a callback with an unknown or used state", "error", err)
		page(w, http.StatusBadRequest, "This sign-in link has expired or was already used. Start again from your application.")
	}
	b, err := l.cfg.Store.Get(ctx, keySignIn+state)
	var s signIn
	if err != nil || state == "" || json.Unmarshal(b, &s) != nil {
		expired(err)
		return
	}
	// The browser first, so that another browser's attempt does not use
	// up the sign-in; then the state is taken, once.
	c, err := r.Cookie(cookieName)
	if err != nil || subtle.ConstantTimeCompare([]byte(digest(c.Value)), []byte(s.Browser)) != 1 {
		l.cfg.Logger.Warn("oauthproxy: a callback from another browser than the one that started the sign-in was refused")
		page(w, http.StatusBadRequest, "This sign-in was started in another browser. Start again from your application.")
		return
	}
	if _, err := l.cfg.Store.Take(ctx, keySignIn+state); err != nil {
		expired(err) // a replay, or a concurrent callback that won
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Path: l.cfg.CallbackPath, MaxAge: -1, HttpOnly: true, Secure: l.secure, SameSite: http.SameSiteLaxMode})
	o := l.finish(ctx, q, &s)
	rec, _ := json.Marshal(o)
	if err := l.cfg.Store.Set(ctx, keyDone+s.RequestID, rec, l.cfg.LoginTimeout); err != nil {
		l.cfg.Logger.Error("oauthproxy: keeping a sign-in's outcome", "error", err)
		page(w, http.StatusInternalServerError, "The sign-in could not be completed. Try again.")
		return
	}
	http.Redirect(w, r, s.ReturnURL, http.StatusSeeOther)
}

// finish exchanges the upstream's code and identifies the user; a failure
// is logged and becomes the outcome's error.
func (l *Login) finish(ctx context.Context, q url.Values, s *signIn) outcome {
	fail := func(msg string, err error) outcome {
		l.cfg.Logger.Warn("oauthproxy: sign-in at "+l.cfg.Upstream.Name+" failed: "+msg, "error", err)
		return outcome{Error: msg}
	}
	if e := q.Get("error"); e != "" {
		return fail("the upstream answered "+e, errors.New(q.Get("error_description")))
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, l.cfg.HTTPClient)
	tok, err := l.oauth.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(s.Verifier))
	if err != nil {
		return fail("the code exchange failed", err)
	}
	user, err := l.cfg.Upstream.Identify(ctx, l.cfg.HTTPClient, tok, s.Nonce)
	if err == nil && (user == nil || user.Subject == "") {
		err = fmt.Errorf("%w: no subject", ErrIdentity)
	}
	if err != nil {
		return fail("the user could not be identified", err)
	}
	if err := l.keep(ctx, principal(l.cfg.Issuer, user.Subject, s.ClientID), tok); err != nil {
		return fail("the upstream token could not be kept", err)
	}
	return outcome{User: user}
}

// random returns 32 random bytes, base64url.
func random() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// digest is the SHA-256 of s, base64url.
func digest(s string) string {
	h := sha256.Sum256([]byte(s))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

var pageTmpl = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Sign-in</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}</style>
</head><body><h1>Sign-in</h1><p>{{.}}</p></body></html>
`))

// page writes a plain HTML page with msg.
func page(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = pageTmpl.Execute(w, msg)
}
