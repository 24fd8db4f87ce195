package oauthserver

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// Protect returns what protects a fastmcp server's MCP endpoint with this
// authorization server, on the same origin:
//
//	s := fastmcp.New("files", "1.0.0", fastmcp.Auth(as.Protect("https://mcp.example.com/mcp")))
//
// resource (one of Config.Resources) is the MCP endpoint's URL. Requests
// need a token of this server for it, verified with the server's own keys
// (no network: auth.JWT reads the key set from the server in process);
// the protected resource metadata names this server's issuer; and every
// endpoint of the server (metadata, authorization, token, registration,
// key set, the Login's routes) is served on the fastmcp server's address.
// configure functions change the auth.ProtectOptions as auth.Protect's
// do (Bearer.Scopes, logging). Unless Config.NoDPoP is set, DPoP-bound
// tokens are accepted with their proofs, as well as bearer tokens.
func (s *Server) Protect(resource string, configure ...func(*auth.ProtectOptions)) fastmcp.HTTPAuth {
	return &protection{s: s, resource: resource, configure: slices.Clone(configure)}
}

type protection struct {
	s         *Server
	resource  string
	configure []func(*auth.ProtectOptions)
}

// ProtectHTTP implements fastmcp.HTTPAuth.
func (p *protection) ProtectHTTP(logger *slog.Logger, requiredScopes func() []string) (func(http.Handler) http.Handler, map[string]http.Handler, error) {
	s := p.s
	if !slices.Contains(s.cfg.Resources, p.resource) {
		return nil, nil, fmt.Errorf("oauthserver: Protect(%q): not one of Config.Resources %q", p.resource, s.cfg.Resources)
	}
	v := auth.JWT(s.cfg.Issuer, p.resource, func(o *auth.JWTOptions) {
		o.JWKSURL = s.cfg.Issuer + pathJWKS
		o.HTTPClient = &http.Client{Transport: inProcess{s}, Timeout: 10 * time.Second}
		o.RequireJWTAccessTokenType = true
	})
	configure := p.configure
	if !s.cfg.NoDPoP {
		configure = append([]func(*auth.ProtectOptions){func(o *auth.ProtectOptions) {
			o.Bearer.DPoP = &auth.DPoPOptions{Algorithms: dpopAlgs}
		}}, configure...)
	}
	protect, public, err := auth.Protect(v, configure...).ProtectHTTP(logger, requiredScopes)
	if err != nil {
		return nil, nil, err
	}
	if public == nil {
		public = map[string]http.Handler{}
	}
	for path, h := range s.routes {
		if _, ok := public[path]; !ok {
			public[path] = h
		}
	}
	return protect, public, nil
}

// inProcess is an http.RoundTripper that serves requests with the server
// itself: the key set, without the network.
type inProcess struct{ s *Server }

func (t inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_ = r.Body.Close()
	}
	w := &recorder{header: http.Header{}, status: http.StatusOK}
	t.s.ServeHTTP(w, r)
	return &http.Response{
		StatusCode: w.status, Status: http.StatusText(w.status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: w.header, Body: io.NopCloser(&w.body), ContentLength: int64(w.body.Len()), Request: r,
	}, nil
}

// recorder is the http.ResponseWriter of inProcess.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (w *recorder) Header() http.Header { return w.header }

func (w *recorder) WriteHeader(status int) {
	if !w.wrote {
		w.status, w.wrote = status, true
	}
}

func (w *recorder) Write(b []byte) (int, error) {
	w.wrote = true
	return w.body.Write(b)
}
