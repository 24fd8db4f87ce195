package fastmcp

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
)

// HTTPAuth protects a server's MCP endpoints over HTTP: what the Auth
// option takes. Package auth's Protect returns one (OAuth 2.1 access
// tokens, as the MCP authorization specification asks); package fastmcp
// names none of package auth's types, so a server without the Auth option
// does not link token verification.
type HTTPAuth interface {
	// ProtectHTTP is called once, by New, with the server's logger and a
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
	build func(o *authOption, logger *slog.Logger, required func() []string) (*authState, error)
}

// authState is the Auth option built: what the HTTP endpoints check and
// serve. Its fields are functions, so that the HTTP code calling them
// links nothing of this file in a server without Auth.
type authState struct {
	protect func(http.Handler) http.Handler               // in front of the MCP endpoints
	serve   func(mux *http.ServeMux, logger *slog.Logger) // adds the public documents to mux
}

// newAuthState builds the Auth option o with the server's logger;
// required returns the scopes the server's features require.
func newAuthState(o *authOption, logger *slog.Logger, required func() []string) (*authState, error) {
	if o.auth == nil {
		return nil, errors.New("fastmcp: Auth: nil HTTPAuth: pass auth.Protect(auth.JWT(issuer, resource)) or another HTTPAuth")
	}
	protect, public, err := o.auth.ProtectHTTP(logger, required)
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
