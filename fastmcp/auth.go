package fastmcp

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/fastmcp-go/fastmcp/authinfo"
)

// HTTPAuth protects a server's MCP endpoints over HTTP: what the Auth
// option takes. Package auth's Protect returns one (OAuth 2.1 access
// tokens, as the MCP authorization specification asks); package fastmcp
// names none of package auth's types, so a server without the Auth option
// does not link token verification.
//
// An HTTPAuth that also has the method
//
//	ProtectHTTPWith(set authinfo.Settings, logger *slog.Logger, requiredScopes func() []string) (protect func(http.Handler) http.Handler, public map[string]http.Handler, err error)
//
// (auth.Protection has) is called through it instead, with the auth
// settings (Settings.AuthIssuer and the others, from the flags and the
// environment) to fill in what its configuration leaves empty. With an
// HTTPAuth without it, an auth setting is an error.
type HTTPAuth interface {
	// ProtectHTTP is called once, when the server starts serving HTTP
	// (Run, or the first request to ServeHTTP), with the server's logger and a
	// function that returns every scope the server's features require
	// (RequireScopes), as registered when it is called. It returns the
	// middleware in front of the MCP endpoints, which puts the verified
	// token in the request's context (authinfo.NewContext, where
	// Context.Auth and RequireScopes read it, and authinfo.WithChallenge
	// for the step-up answers of RequireScopes), and the handlers of the
	// documents served without a token (the protected resource metadata)
	// by path; or why it cannot protect the server.
	ProtectHTTP(logger *slog.Logger, requiredScopes func() []string) (protect func(http.Handler) http.Handler, public map[string]http.Handler, err error)
}

// authOption is the Auth option as given to New. It carries its builder,
// so that only a program that uses Auth links the code below.
type authOption struct {
	auth  HTTPAuth
	build func(o *authOption, s *Server, set *Settings) (*authState, error)
}

// authState is the Auth option built: what the HTTP endpoints check and
// serve. Its fields are functions, so that the HTTP code calling them
// links nothing of this file in a server without Auth.
type authState struct {
	protect func(http.Handler) http.Handler               // in front of the MCP endpoints
	serve   func(mux *http.ServeMux, logger *slog.Logger) // adds the public documents to mux
}

// settingsHTTPAuth is an HTTPAuth that takes the server's auth settings
// (auth.Protection).
type settingsHTTPAuth interface {
	ProtectHTTPWith(set authinfo.Settings, logger *slog.Logger, requiredScopes func() []string) (protect func(http.Handler) http.Handler, public map[string]http.Handler, err error)
}

// newAuthState builds the Auth option o of s, with the auth settings of
// set, when s starts serving HTTP.
func newAuthState(o *authOption, s *Server, set *Settings) (*authState, error) {
	if o.auth == nil {
		return nil, errors.New("fastmcp: Auth: nil HTTPAuth: pass auth.Protect(auth.JWT(issuer, resource)) or another HTTPAuth")
	}
	var as authinfo.Settings
	var from []string // where each setting given came from
	for i, p := range [...]*authinfo.Setting{&as.Issuer, &as.Audience, &as.Resource, &as.JWKSURL} {
		if v := authSettings(set)[i]; v != "" {
			*p = authinfo.Setting{Value: v, From: s.settingFrom(authSettingNames[i])}
			from = append(from, p.From)
		}
	}
	var protect func(http.Handler) http.Handler
	var public map[string]http.Handler
	var err error
	if w, ok := o.auth.(settingsHTTPAuth); ok {
		protect, public, err = w.ProtectHTTPWith(as, s.logger, s.requiredScopes)
	} else if from != nil {
		err = fmt.Errorf("the auth settings (%s) need an HTTPAuth with a ProtectHTTPWith method, such as auth.Protect's; %T has none", strings.Join(from, ", "), o.auth)
	} else {
		protect, public, err = o.auth.ProtectHTTP(s.logger, s.requiredScopes)
	}
	if err == nil && protect == nil {
		err = errors.New("ProtectHTTP returned no middleware")
	}
	if err != nil {
		return nil, fmt.Errorf("fastmcp: Auth: %w", err)
	}
	paths := make([]string, 0, len(public))
	for p := range public {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	serve := func(mux *http.ServeMux, logger *slog.Logger) {
		for _, p := range paths {
			if err := tryHandle(mux, p, public[p]); err != nil {
				logger.Warn("the protected resource metadata is not served at "+p+": a HandleHTTP route serves that path", "error", err)
			}
		}
	}
	return &authState{protect: protect, serve: serve}, nil
}

// tryHandle is mux.Handle, with the panic of a conflicting pattern
// returned as an error.
func tryHandle(mux *http.ServeMux, pattern string, h http.Handler) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = errors.New(fmt.Sprint(p))
		}
	}()
	mux.Handle(pattern, h)
	return nil
}
