package oauthclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// RoundTrip sends req with the current access token, and on 401 or 403
// insufficient_scope gets a new token and sends it again (see Transport).
// A request to another origin than the server's is sent as is.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.EqualFold(req.URL.Scheme, t.server.Scheme) || !strings.EqualFold(hostPort(req.URL), hostPort(t.server)) {
		// Another origin (an SSE endpoint elsewhere, say) never sees the
		// server's token.
		return t.base.RoundTrip(req)
	}
	ctx := req.Context()
	getBody, err := replayable(req)
	if err != nil {
		return nil, err
	}
	st := &attempt{}
	for {
		tok, err := t.current(ctx)
		if err != nil {
			return nil, err
		}
		r := req.Clone(ctx)
		if getBody != nil {
			if r.Body, err = getBody(); err != nil {
				return nil, fmt.Errorf("oauthclient: rewinding the request body: %w", err)
			}
		}
		bound := tok != nil && t.dpop != nil && strings.EqualFold(tok.TokenType, "DPoP")
		switch {
		case bound:
			p, err := t.dpop.proof(r.Method, r.URL, tok.AccessToken)
			if err != nil {
				return nil, err
			}
			r.Header.Set("Authorization", "DPoP "+tok.AccessToken)
			r.Header.Set("DPoP", p)
		case tok != nil:
			r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		}
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		if bound && t.dpop.remember(r.URL, resp.Header) && resp.StatusCode == http.StatusUnauthorized &&
			bearerChallenge(resp.Header, true).Error() == "use_dpop_nonce" && !st.nonced {
			// RFC 9449 §9: the server wants its nonce in the proof.
			st.nonced = true
			discard(resp)
			continue
		}
		var stepUp bool
		switch resp.StatusCode {
		case http.StatusUnauthorized:
		case http.StatusForbidden:
			if bearerChallenge(resp.Header, false).Error() != "insufficient_scope" {
				return resp, nil
			}
			stepUp = true
		default:
			return resp, nil
		}
		ch := bearerChallenge(resp.Header, false)
		discard(resp)
		if err := t.recover(ctx, tok, ch, stepUp, st); err != nil {
			return nil, err
		}
	}
}

// attempt is what one RoundTrip has tried so far.
type attempt struct {
	nonced         bool // resent with the resource server's DPoP nonce
	refreshed      bool
	authorizations int
}

// discard drains (a little of) and closes an answer the client will not
// use, so its connection can be reused.
func discard(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

// replayable returns a function that gives a fresh copy of req's body for
// each send, or nil for a request without one. req.Body itself is closed
// (a RoundTripper always closes it).
func replayable(req *http.Request) (func() (io.ReadCloser, error), error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	if req.GetBody != nil {
		req.Body.Close()
		return req.GetBody, nil
	}
	data, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("oauthclient: reading the request body: %w", err)
	}
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }, nil
}

// acquire takes the Transport's lock, or fails when ctx ends first.
func (t *Transport) acquire(ctx context.Context) error {
	select {
	case t.lock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (t *Transport) release() { <-t.lock }

// load reads the stored record once. Called with the lock held.
func (t *Transport) load(ctx context.Context) error {
	if t.loaded {
		return nil
	}
	rec, err := t.cfg.Store.Load(ctx, t.key)
	if err != nil {
		return fmt.Errorf("oauthclient: loading stored token: %w", err)
	}
	if rec == nil {
		rec = &Record{}
	}
	if rec.Token != nil && strings.EqualFold(rec.Token.TokenType, "DPoP") {
		rec.Token = nil // bound to the key of an earlier run, which is gone
	}
	t.rec, t.loaded = rec, true
	return nil
}

// save stores the record. Called with the lock held.
func (t *Transport) save(ctx context.Context) error {
	if err := t.cfg.Store.Save(ctx, t.key, t.rec); err != nil {
		return fmt.Errorf("oauthclient: storing token: %w", err)
	}
	return nil
}

// current returns the token to send, refreshing an expired one first when
// it can; nil when there is none yet.
func (t *Transport) current(ctx context.Context) (*oauth2.Token, error) {
	if err := t.acquire(ctx); err != nil {
		return nil, err
	}
	defer t.release()
	if err := t.load(ctx); err != nil {
		return nil, err
	}
	tok := t.rec.Token
	if tok == nil || tok.AccessToken == "" {
		return nil, nil
	}
	if !tok.Expiry.IsZero() && time.Until(tok.Expiry) < 10*time.Second && tok.RefreshToken != "" {
		if err := t.refresh(ctx); err != nil {
			t.logger.Info("oauthclient: refreshing the expired token failed; will authorize again", "error", err)
			t.rec.Token = nil
			return nil, nil
		}
	}
	return t.rec.Token, nil
}

// recover gets a new token after the server refused used (nil if the
// request carried none) with ch: a token another call got meanwhile, else
// a refresh (once per request, on 401), else a new authorization.
func (t *Transport) recover(ctx context.Context, used *oauth2.Token, ch Challenge, stepUp bool, st *attempt) error {
	if err := t.acquire(ctx); err != nil {
		return err
	}
	defer t.release()
	if t.rec.Token != used && t.rec.Token != nil {
		return nil // another call has a new token already
	}
	if !stepUp && !st.refreshed && used != nil && used.RefreshToken != "" {
		st.refreshed = true
		err := t.refresh(ctx)
		if err == nil {
			return nil
		}
		t.logger.Info("oauthclient: refreshing the token failed; authorizing again", "error", err)
	}
	if st.authorizations >= t.cfg.MaxAuthorizations {
		op := "authorize"
		if stepUp {
			op = "step up"
		}
		return &Error{Op: op, URL: t.server.String(), Code: ch.Error(), Description: ch.Params["error_description"],
			Err: fmt.Errorf("%w: the server still refuses after %d authorizations", ErrRetryLimit, st.authorizations)}
	}
	st.authorizations++
	var scopes []string
	if stepUp && t.rec.Token != nil {
		scopes = slices.Clone(t.rec.Scopes) // keep what was granted (SEP-2350)
	}
	return t.authorize(ctx, ch, scopes)
}

// Token returns the current access token, nil when there is none yet. It
// does not start an authorization.
func (t *Transport) Token(ctx context.Context) (*oauth2.Token, error) {
	tok, err := t.current(ctx)
	if err != nil || tok == nil {
		return nil, err
	}
	c := *tok
	return &c, nil
}

// errNoIssuer is resource metadata without authorization servers.
var errNoIssuer = errors.New("oauthclient: resource metadata names no authorization server")
