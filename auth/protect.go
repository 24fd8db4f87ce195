package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/fastmcp-go/fastmcp/authinfo"
)

// ProtectOptions is what Protect sets up: the protected resource metadata
// the server publishes (RFC 9728) and how the bearer middleware in front
// of the MCP endpoints checks tokens.
//
// Protect fills in the defaults before its configure functions run: with a
// verifier from JWT (or NewJWTVerifier), Metadata.Resource is its audience
// and Metadata.AuthorizationServers its issuer; Metadata.BearerMethodsSupported
// is ["header"]; Bearer.Logger is the server's logger. After they run,
// whatever is still empty is derived from the result: Bearer.ResourceMetadataURL
// from Metadata.Resource (WellKnownURL), and with Bearer.DPoP the DPoP
// fields of the metadata. Metadata.ScopesSupported, left nil, is served as
// Bearer.Scopes followed by every scope the server's features require
// (fastmcp's RequireScopes), as registered when the document is asked for,
// so that clients (which ask for the 401 challenge's scope, else for
// scopes_supported) ask an authorization server such as an OpenID provider
// for scopes of this resource.
//
// Bearer.Scopes is the base scope: every token needs it, 401 challenges
// name it (scope="…"), so that clients ask for it first, and 403
// insufficient_scope answers for a feature that requires more name it
// together with the feature's scopes, so that a client's step-up keeps it.
type ProtectOptions struct {
	// Metadata is the protected resource metadata document, served at
	// the well-known path of Metadata.Resource. Resource (the canonical
	// URL of the MCP endpoint, as clients reach it) and
	// AuthorizationServers (the issuers of tokens for it) are required.
	Metadata ProtectedResourceMetadata
	// Bearer configures the token check on every MCP endpoint (see
	// RequireBearerToken): scopes every request needs, clock skew, DPoP,
	// logging.
	Bearer BearerOptions
}

// Protection protects an MCP server's HTTP endpoints with OAuth 2.1
// access tokens, as the MCP authorization specification asks: give it to
// fastmcp.Auth, which calls ProtectHTTP.
//
//	s := fastmcp.New("files", "1.0.0",
//		fastmcp.Auth(auth.Protect(auth.JWT("https://idp.example.com", "https://mcp.example.com/mcp"))))
type Protection struct {
	verifier  TokenVerifier
	configure []func(*ProtectOptions)
}

// Protect returns the protection of a server's MCP endpoints by v: every
// request needs a token v accepts; others get 401 with a WWW-Authenticate
// challenge that names the metadata document (see RequireBearerToken for
// every answer). The metadata document is served, without a token and to
// any origin, at the well-known path of the resource
// (/.well-known/oauth-protected-resource/mcp for https://host/mcp) and at
// /.well-known/oauth-protected-resource, the root clients try next.
// Handlers read the verified token with TokenInfoFrom (fastmcp's
// Context.Auth).
//
// configure functions change the ProtectOptions, in order, after the
// defaults are filled in. A verifier other than one from JWT or
// NewJWTVerifier needs one that sets Metadata.Resource and
// Metadata.AuthorizationServers. A configuration error (an invalid issuer,
// a missing resource) is returned by ProtectHTTP.
func Protect(v TokenVerifier, configure ...func(*ProtectOptions)) *Protection {
	return &Protection{verifier: v, configure: slices.Clone(configure)}
}

// JWT returns a verifier of JWT access tokens (RFC 9068) issued by issuer
// for audience, to give to Protect: it checks the signature against the
// keys the issuer publishes (found through its OAuth or OpenID metadata,
// fetched on first use and cached), "iss", "aud", "exp" and "nbf". Given to
// Protect, it also makes audience the resource and issuer the
// authorization server of the metadata document. configure functions set
// further options (JWKSURL, Algorithms, ClockSkew, HTTPClient...); see
// NewJWTVerifier.
//
// issuer must be an https URL, or http on a loopback host. An empty
// issuer, audience or JWKSURL is taken from the server's settings when it
// starts serving (fastmcp's -auth-issuer, -auth-audience and
// -auth-jwks-url flags, FASTMCP_AUTH_ISSUER, FASTMCP_AUTH_AUDIENCE and
// FASTMCP_AUTH_JWKS_URL; see ProtectHTTPWith), so that
// auth.JWT("", "") leaves both to the deployment. An invalid option does
// not panic: ProtectHTTP reports it (fastmcp returns it when the server
// starts serving HTTP), and Verify returns it, wrapping ErrUnavailable.
func JWT(issuer, audience string, configure ...func(*JWTOptions)) TokenVerifier {
	opts := JWTOptions{Issuer: issuer, Audience: audience}
	for _, fn := range configure {
		fn(&opts)
	}
	return newJWT(opts)
}

// newJWT is NewJWTVerifier, with an invalid option kept in a
// failedVerifier with the options.
func newJWT(opts JWTOptions) TokenVerifier {
	var err error
	switch {
	case opts.Issuer == "":
		err = errors.New("the issuer is empty: pass it to auth.JWT, or set the server's auth issuer setting (flag -auth-issuer, FASTMCP_AUTH_ISSUER)")
	case opts.Audience == "":
		err = errors.New("the audience is empty: pass it to auth.JWT, or set the server's auth audience setting (flag -auth-audience, FASTMCP_AUTH_AUDIENCE)")
	}
	if err == nil {
		var v *JWTVerifier
		if v, err = NewJWTVerifier(opts); err == nil {
			return v
		}
	}
	return &failedVerifier{err: fmt.Errorf("auth: JWT: %w", err), opts: opts}
}

// failedVerifier is what JWT returns for invalid options: Verify and
// ProtectHTTP return the error, unless the server's settings complete the
// options.
type failedVerifier struct {
	err  error
	opts JWTOptions
}

func (f *failedVerifier) Verify(context.Context, string, *http.Request) (*TokenInfo, error) {
	return nil, fmt.Errorf("%w: %w", ErrUnavailable, f.err)
}

// errProtect prefixes the configuration errors of Protect.
const errProtect = "auth: Protect"

// ProtectHTTP builds the protection for one server: logger is the
// server's logger (Bearer.Logger by default) and requiredScopes, when not
// nil, returns the scopes the server's features require, as registered
// when it is called (for scopes_supported). It returns the bearer
// middleware for the MCP endpoints, and the metadata document's handler
// by path, to serve without a token; or the configuration error. It
// implements fastmcp's HTTPAuth. It is ProtectHTTPWith without settings.
func (p *Protection) ProtectHTTP(logger *slog.Logger, requiredScopes func() []string) (protect func(http.Handler) http.Handler, public map[string]http.Handler, err error) {
	return p.ProtectHTTPWith(authinfo.Settings{}, logger, requiredScopes)
}

// ProtectHTTPWith is ProtectHTTP with the server's auth settings (fastmcp
// calls it with those it resolved from its flags and environment), each
// of which fills in the value the configuration leaves empty:
//
//	setting   fills in
//	Issuer    the issuer of auth.JWT (JWTOptions.Issuer)
//	Audience  the audience of auth.JWT (JWTOptions.Audience)
//	JWKSURL   JWTOptions.JWKSURL of auth.JWT
//	Resource  ProtectOptions.Metadata.Resource (by default the audience)
//
// A setting whose value differs from a value the configuration gives is
// an error, a *SettingConflictError naming both: a deployment's setting
// is never silently overridden by, or overrides, the code. The issuer,
// audience and JWKS URL settings apply to the verifier auth.JWT or
// NewJWTVerifier returns (when one fills a value in, the middleware uses
// a new verifier built from its JWTOptions with the value filled in);
// with another verifier they are an error.
func (p *Protection) ProtectHTTPWith(set authinfo.Settings, logger *slog.Logger, requiredScopes func() []string) (protect func(http.Handler) http.Handler, public map[string]http.Handler, err error) {
	if p.verifier == nil {
		return nil, nil, fmt.Errorf("%s: the token verifier is nil: pass auth.JWT(issuer, audience) or another TokenVerifier", errProtect)
	}
	verifier, err := withSettings(p.verifier, &set)
	if err != nil {
		return nil, nil, err
	}
	var cfg ProtectOptions
	cfg.Bearer.Logger = logger
	cfg.Metadata.BearerMethodsSupported = []string{"header"}
	defaultURL := ""
	if v, ok := verifier.(*JWTVerifier); ok {
		cfg.Metadata.Resource = v.audience
		cfg.Metadata.AuthorizationServers = []string{v.issuer}
		defaultURL, _ = WellKnownURL(v.audience) // an invalid audience is reported below
		cfg.Bearer.ResourceMetadataURL = defaultURL
	}
	defaultResource := cfg.Metadata.Resource
	for _, fn := range p.configure {
		fn(&cfg)
	}
	m := &cfg.Metadata
	if err := settingResource(m, defaultResource, set.Resource); err != nil {
		return nil, nil, err
	}
	path, err := checkResource(m, defaultResource)
	if err != nil && set.Resource.Set() {
		err = fmt.Errorf("%w (with setting %s=%q)", err, set.Resource.From, set.Resource.Value)
	}
	if err != nil {
		return nil, nil, err
	}
	// The metadata URL follows the resource unless it was set on purpose.
	if b := &cfg.Bearer; b.ResourceMetadataURL == "" || (b.ResourceMetadataURL == defaultURL && m.Resource != defaultResource) {
		if b.ResourceMetadataURL, err = WellKnownURL(m.Resource); err != nil {
			return nil, nil, fmt.Errorf("%s: ProtectOptions.Metadata.Resource: %w", errProtect, err)
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
				m.DPoPSigningAlgValuesSupported = slices.Clone(DefaultAlgorithms)
			}
		}
		m.DPoPBoundAccessTokensRequired = m.DPoPBoundAccessTokensRequired || d.Required
	}
	metadata, err := MetadataHandler(m)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: ProtectOptions.Metadata: %w", errProtect, err)
	}
	if derive && requiredScopes != nil {
		metadata = &scopedMetadata{doc: *m, base: slices.Clone(cfg.Bearer.Scopes), required: requiredScopes}
	}
	if protect, err = bearerMiddleware(verifier, &cfg.Bearer); err != nil {
		return nil, nil, err
	}
	public = map[string]http.Handler{path: metadata, WellKnownPrefix: metadata}
	return protect, public, nil
}

// checkResource checks the resource and authorization servers of m and
// returns the well-known path of its document; defaultResource is the
// resource the verifier implied.
func checkResource(m *ProtectedResourceMetadata, defaultResource string) (string, error) {
	if m.Resource == "" {
		return "", fmt.Errorf("%s: ProtectOptions.Metadata.Resource is empty: set it to the URL clients reach the MCP endpoint at, such as %q, in a configure function of Protect (auth.JWT sets it to its audience)",
			errProtect, "https://mcp.example.com/mcp")
	}
	path, err := WellKnownPath(m.Resource)
	if err != nil && m.Resource == defaultResource {
		return "", fmt.Errorf("%s: ProtectOptions.Metadata.Resource, the JWT verifier's audience by default: %w; when the tokens' audience is not the endpoint's URL (Entra's api://…), set Metadata.Resource to that URL in a configure function of Protect",
			errProtect, err)
	}
	if err != nil {
		return "", fmt.Errorf("%s: ProtectOptions.Metadata.Resource: %w", errProtect, err)
	}
	if len(m.AuthorizationServers) == 0 {
		return "", fmt.Errorf("%s: ProtectOptions.Metadata.AuthorizationServers is empty: set it to the issuer URL of the authorization server that issues tokens for %s (MCP clients find it there)",
			errProtect, m.Resource)
	}
	return path, nil
}

// bearerMiddleware is RequireBearerToken, with the panic it reserves for
// invalid options (a DPoP algorithm that is not asymmetric) returned as an
// error.
func bearerMiddleware(v TokenVerifier, opts *BearerOptions) (mw func(http.Handler) http.Handler, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: ProtectOptions.Bearer: %v", errProtect, p)
		}
	}()
	return RequireBearerToken(v, opts), nil
}

// scopedMetadata serves the protected resource metadata with
// scopes_supported made of the base scopes (Bearer.Scopes) and those
// required returns, as they are when the document is asked for: features
// registered after the server started, or removed, show in the next
// answer.
type scopedMetadata struct {
	doc      ProtectedResourceMetadata // without the derived scopes
	base     []string
	required func() []string

	mu   sync.Mutex
	key  string       // the scopes h serves, space-separated
	h    http.Handler // nil until the first request
	herr error
}

func (m *scopedMetadata) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	scopes := slices.Clone(m.base)
	for _, sc := range m.required() {
		if !slices.Contains(scopes, sc) {
			scopes = append(scopes, sc)
		}
	}
	key := strings.Join(scopes, " ")
	m.mu.Lock()
	if m.h == nil || m.key != key {
		doc := m.doc
		doc.ScopesSupported = scopes
		m.h, m.herr = MetadataHandler(&doc)
		m.key = key
	}
	h, err := m.h, m.herr
	m.mu.Unlock()
	if err != nil { // checked in ProtectHTTP: not expected
		http.Error(w, "protected resource metadata unavailable", http.StatusInternalServerError)
		return
	}
	h.ServeHTTP(w, r)
}
