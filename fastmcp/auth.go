package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"

	"github.com/fastmcp-go/fastmcp/auth"
)

// AuthConfig is what the Auth option sets up: the protected resource
// metadata the server publishes (RFC 9728) and how the bearer middleware in
// front of the MCP endpoints checks tokens.
//
// Auth fills in the defaults before its configure functions run: with a
// verifier from JWTVerifier, Metadata.Resource is its audience and
// Metadata.AuthorizationServers its issuer; Metadata.BearerMethodsSupported
// is ["header"]; Bearer.Logger is the server's logger. After they run,
// whatever is still empty is derived from the result: Bearer.ResourceMetadataURL
// from Metadata.Resource (auth.WellKnownURL), and with Bearer.DPoP the DPoP
// fields of the metadata. Metadata.ScopesSupported, left nil, is served as
// Bearer.Scopes followed by every scope RequireScopes names on the server's
// tools, prompts and resources, as registered when the document is asked
// for, so that clients (which ask for the 401 challenge's scope, else for
// scopes_supported) ask an authorization server such as an OpenID
// provider for scopes of this resource.
//
// Bearer.Scopes is the base scope: every token needs it, 401 challenges
// name it (scope="…"), so that clients ask for it first, and 403
// insufficient_scope answers for a RequireScopes feature name it together
// with the feature's scopes, so that a client's step-up keeps it.
type AuthConfig struct {
	// Metadata is the protected resource metadata document, served at
	// the well-known path of Metadata.Resource. Resource (the canonical
	// URL of the MCP endpoint, as clients reach it) and
	// AuthorizationServers (the issuers of tokens for it) are required.
	Metadata auth.ProtectedResourceMetadata
	// Bearer configures the token check on every MCP endpoint (see
	// auth.RequireBearerToken): scopes every request needs, clock skew,
	// DPoP, logging.
	Bearer auth.BearerOptions
}

// Auth protects the server's MCP endpoints over HTTP with OAuth 2.1 access
// tokens, as the MCP authorization specification asks:
//
//	s := fastmcp.New("files", "1.0.0",
//		fastmcp.Auth(fastmcp.JWTVerifier("https://idp.example.com", "https://mcp.example.com/mcp")))
//
// Every request to the Streamable HTTP endpoint and to the legacy
// HTTP+SSE endpoints, which move under it (/mcp/sse and /mcp/message, see
// HTTPConfig), needs a token v accepts; others get 401 with a
// WWW-Authenticate challenge that names the metadata document (see
// auth.RequireBearerToken for every answer). The metadata document is
// served, without a token and to any origin, at the well-known path of the
// resource (/.well-known/oauth-protected-resource/mcp for
// https://host/mcp) and at /.well-known/oauth-protected-resource, the root
// clients try next. /healthz and HandleHTTP routes are not protected.
// Handlers read the verified token with Context.Auth.
//
// Sessions and requestState are bound to the token's principal (issuer,
// subject and client: auth.PrincipalFromRequest) unless HTTPPrincipal says
// otherwise, so another user's token cannot use them, and a client that
// refreshes its token keeps its session.
//
// configure functions change the AuthConfig, in order, after the defaults
// are filled in. A verifier other than JWTVerifier needs one that sets
// Metadata.Resource and Metadata.AuthorizationServers.
//
// A configuration error (an invalid issuer, a missing resource) is
// returned by Run, ListenAndServe and ServeListener; a mounted Server
// (ServeHTTP) logs it once and answers 503. Over stdio authorization does
// not apply: the option is ignored there, with one log line.
func Auth(v auth.TokenVerifier, configure ...func(*AuthConfig)) Option {
	return serverOption(func(c *serverConfig) {
		c.auth = &authOption{verifier: v, configure: configure, build: newAuthState}
	})
}

// authOption is the Auth option as given to New. It carries its builder, so
// that only a program that uses Auth links the bearer middleware (and the
// JOSE code of DPoP behind it).
type authOption struct {
	verifier  auth.TokenVerifier
	configure []func(*AuthConfig)
	build     func(o *authOption, logger *slog.Logger, required func() []string) (*authState, error)
}

// JWTVerifier returns a verifier of JWT access tokens (RFC 9068) issued
// by issuer for audience, to give to Auth: it checks the signature against
// the keys the issuer publishes (found through its OAuth or OpenID
// metadata, fetched on first use and cached), "iss", "aud", "exp" and
// "nbf". Given to Auth, it also makes audience the resource and issuer the
// authorization server of the metadata document. configure functions set
// further options (JWKSURL, Algorithms, ClockSkew, HTTPClient...); see
// auth.NewJWTVerifier.
//
// issuer must be an https URL, or http on a loopback host. An invalid
// option does not panic: Auth reports it when the server starts serving
// HTTP, and Verify returns it, wrapping auth.ErrUnavailable.
func JWTVerifier(issuer, audience string, configure ...func(*auth.JWTOptions)) auth.TokenVerifier {
	opts := auth.JWTOptions{Issuer: issuer, Audience: audience}
	for _, fn := range configure {
		fn(&opts)
	}
	v, err := auth.NewJWTVerifier(opts)
	if err != nil {
		err = fmt.Errorf("fastmcp: JWTVerifier: %w", err)
	}
	return &jwtVerifier{issuer: opts.Issuer, audience: opts.Audience, v: v, err: err}
}

// jwtVerifier is what JWTVerifier returns: an auth.JWTVerifier with the
// issuer and audience Auth derives the metadata from, or the error that
// prevented building it.
type jwtVerifier struct {
	issuer, audience string
	v                *auth.JWTVerifier
	err              error
}

func (j *jwtVerifier) Verify(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
	if j.err != nil {
		return nil, fmt.Errorf("%w: %w", auth.ErrUnavailable, j.err)
	}
	return j.v.Verify(ctx, token, r)
}

// authState is the Auth option built: what the HTTP endpoints serve and
// check.
type authState struct {
	metadataURL string                          // named in every challenge
	paths       []string                        // where the metadata document is served
	metadata    http.Handler                    // serves it
	protect     func(http.Handler) http.Handler // the bearer middleware
	baseScopes  []string                        // Bearer.Scopes: every token needs them
}

// errAuthConfig prefixes the configuration errors of the Auth option.
const errAuthConfig = "fastmcp: Auth"

// newAuthState builds the Auth option o with the server's logger;
// required returns the scopes the server's features require (nil: none).
func newAuthState(o *authOption, logger *slog.Logger, required func() []string) (*authState, error) {
	if o.verifier == nil {
		return nil, fmt.Errorf("%s: the token verifier is nil: pass fastmcp.JWTVerifier(issuer, audience) or an auth.TokenVerifier", errAuthConfig)
	}
	var cfg AuthConfig
	cfg.Bearer.Logger = logger
	cfg.Metadata.BearerMethodsSupported = []string{"header"}
	defaultURL := ""
	if j, ok := o.verifier.(*jwtVerifier); ok {
		if j.err != nil {
			return nil, j.err
		}
		cfg.Metadata.Resource = j.audience
		cfg.Metadata.AuthorizationServers = []string{j.issuer}
		defaultURL, _ = auth.WellKnownURL(j.audience) // an invalid audience is reported below
		cfg.Bearer.ResourceMetadataURL = defaultURL
	}
	defaultResource := cfg.Metadata.Resource
	for _, fn := range o.configure {
		fn(&cfg)
	}
	m := &cfg.Metadata
	if m.Resource == "" {
		return nil, fmt.Errorf("%s: AuthConfig.Metadata.Resource is empty: set it to the URL clients reach the MCP endpoint at, such as %q, in a configure function of the Auth option (the JWTVerifier sets it to its audience)",
			errAuthConfig, "https://mcp.example.com/mcp")
	}
	path, err := auth.WellKnownPath(m.Resource)
	if err != nil && m.Resource == defaultResource {
		return nil, fmt.Errorf("%s: AuthConfig.Metadata.Resource, the JWTVerifier's audience by default: %w; when the tokens' audience is not the endpoint's URL (Entra's api://…), set Metadata.Resource to that URL in a configure function of Auth",
			errAuthConfig, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: AuthConfig.Metadata.Resource: %w", errAuthConfig, err)
	}
	if len(m.AuthorizationServers) == 0 {
		return nil, fmt.Errorf("%s: AuthConfig.Metadata.AuthorizationServers is empty: set it to the issuer URL of the authorization server that issues tokens for %s (MCP clients find it there)",
			errAuthConfig, m.Resource)
	}
	// The metadata URL follows the resource unless it was set on purpose.
	if b := &cfg.Bearer; b.ResourceMetadataURL == "" || (b.ResourceMetadataURL == defaultURL && m.Resource != defaultResource) {
		if b.ResourceMetadataURL, err = auth.WellKnownURL(m.Resource); err != nil {
			return nil, fmt.Errorf("%s: AuthConfig.Metadata.Resource: %w", errAuthConfig, err)
		}
	}
	derive := m.ScopesSupported == nil
	if derive {
		m.ScopesSupported = slices.Clone(cfg.Bearer.Scopes)
	}
	if d := cfg.Bearer.DPoP; d != nil {
		if m.DPoPSigningAlgValuesSupported == nil {
			m.DPoPSigningAlgValuesSupported = slices.Clone(d.Algorithms)
			if m.DPoPSigningAlgValuesSupported == nil {
				m.DPoPSigningAlgValuesSupported = slices.Clone(auth.DefaultAlgorithms)
			}
		}
		m.DPoPBoundAccessTokensRequired = m.DPoPBoundAccessTokensRequired || d.Required
	}
	metadata, err := auth.MetadataHandler(m)
	if err != nil {
		return nil, fmt.Errorf("%s: AuthConfig.Metadata: %w", errAuthConfig, err)
	}
	if derive && required != nil {
		metadata = &scopedMetadata{doc: *m, base: slices.Clone(cfg.Bearer.Scopes), required: required}
	}
	protect, err := bearerMiddleware(o.verifier, &cfg.Bearer)
	if err != nil {
		return nil, err
	}
	paths := []string{path}
	if path != auth.WellKnownPrefix {
		paths = append(paths, auth.WellKnownPrefix)
	}
	return &authState{metadataURL: cfg.Bearer.ResourceMetadataURL, paths: paths, metadata: metadata, protect: protect,
		baseScopes: slices.Clone(cfg.Bearer.Scopes)}, nil
}

// bearerMiddleware is auth.RequireBearerToken, with the panic it reserves
// for invalid options (a DPoP algorithm that is not asymmetric) returned
// as an error.
func bearerMiddleware(v auth.TokenVerifier, opts *auth.BearerOptions) (mw func(http.Handler) http.Handler, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: AuthConfig.Bearer: %v", errAuthConfig, p)
		}
	}()
	return auth.RequireBearerToken(v, opts), nil
}

// resourceMetadataURL returns the URL of the protected resource metadata
// document that challenges name, or "" when the server does not verify
// tokens (no Auth option, or an invalid one).
func (s *Server) resourceMetadataURL() string {
	if s.auth == nil {
		return ""
	}
	return s.auth.metadataURL
}

// handleMetadata serves the metadata document on mux at its paths. A path
// that a route already registered on mux conflicts with is left to that
// route, with a log line saying so.
func (a *authState) handleMetadata(mux *http.ServeMux, logger *slog.Logger) {
	for _, p := range a.paths {
		if err := tryHandle(mux, p, a.metadata); err != nil {
			logger.Warn("the protected resource metadata is not served at "+p+": a HandleHTTP route serves that path", "error", err)
		}
	}
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
