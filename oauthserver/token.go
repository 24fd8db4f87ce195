package oauthserver

import (
	"context"
	"net/http"
	"slices"

	"github.com/ory/fosite"
)

// token serves the token endpoint: fosite does the grants; around it, the
// resource (RFC 8707) and DPoP (RFC 9449) checks.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	fail := func(err error) { s.provider.WriteAccessError(ctx, w, fosite.NewAccessRequest(&session{}), err) }
	if r.Method != http.MethodPost {
		fail(fosite.ErrInvalidRequest.WithHint("The token endpoint takes POST."))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		fail(fosite.ErrInvalidRequest.WithHint("The form could not be read."))
		return
	}
	jkt, err := s.checkDPoP(r)
	if err != nil {
		fail(err)
		return
	}
	if err := s.checkTokenResource(ctx, r); err != nil {
		fail(err)
		return
	}
	ctx = context.WithValue(ctx, jktKey{}, jkt)
	ar, err := s.provider.NewAccessRequest(ctx, r, &session{})
	if err != nil {
		s.provider.WriteAccessError(ctx, w, ar, err)
		return
	}
	if sess, ok := ar.GetSession().(*session); ok && sess.JKT != "" && sess.JKT != jkt {
		fail(errDPoP.WithHint("This grant is bound to a DPoP key: send a proof signed with it."))
		return
	}
	resp, err := s.provider.NewAccessResponse(ctx, ar)
	if err != nil {
		s.provider.WriteAccessError(ctx, w, ar, err)
		return
	}
	if jkt != "" {
		resp.SetTokenType("DPoP")
	} else {
		resp.SetTokenType("Bearer")
	}
	s.provider.WriteAccessResponse(ctx, w, ar, resp)
}

// errInvalidTarget is RFC 8707's error.
var errInvalidTarget = &fosite.RFC6749Error{
	ErrorField: "invalid_target", DescriptionField: "The requested resource is invalid, unknown, or not the one the grant is for.",
	CodeField: http.StatusBadRequest,
}

// checkTokenResource checks the resource of a token request: one of the
// server's, and the one its code or refresh token was granted for.
func (s *Server) checkTokenResource(ctx context.Context, r *http.Request) error {
	asked := r.PostForm["resource"]
	if len(asked) == 0 {
		return nil
	}
	if len(asked) > 1 || !slices.Contains(s.cfg.Resources, asked[0]) {
		return errInvalidTarget.WithHint("This server issues no tokens for that resource.")
	}
	var key string
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		key = keyCode + opaqueStrategy{}.signature(r.PostForm.Get("code"))
	case "refresh_token":
		key = keyRefresh + opaqueStrategy{}.signature(r.PostForm.Get("refresh_token"))
	default:
		return nil
	}
	granted, _, err := s.storage.get(ctx, key, nil)
	if err != nil {
		return nil // fosite refuses the grant
	}
	if !slices.Contains(granted.GetGrantedAudience(), asked[0]) {
		return errInvalidTarget.WithHint("The grant is for another resource.")
	}
	return nil
}

// revoke serves the revocation endpoint (RFC 7009).
func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	err := s.provider.NewRevocationRequest(r.Context(), r)
	s.provider.WriteRevocationResponse(r.Context(), w, err)
}

// introspect serves the introspection endpoint (RFC 7662), to
// confidential clients (resource servers) only.
func (s *Server) introspect(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	ir, err := s.provider.NewIntrospectionRequest(ctx, r, &session{})
	if err != nil {
		s.provider.WriteIntrospectionError(ctx, w, err)
		return
	}
	s.provider.WriteIntrospectionResponse(ctx, w, ir)
}
