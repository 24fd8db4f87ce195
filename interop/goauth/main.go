// Command goauth is a protected MCP server built from the standalone auth
// package (auth.NewJWTVerifier, auth.RequireBearerToken and
// auth.MetadataHandler around a fastmcp.Server mounted as an
// http.Handler), for the interop script's OAuth cases:
//
//	go run ./interop/goauth -addr 127.0.0.1:8000 -issuer http://127.0.0.1:9000 -audience http://127.0.0.1:8000/mcp
//
// It serves Streamable HTTP at /mcp and the legacy HTTP+SSE transport at
// /mcp/sse and /mcp/message, behind bearer tokens issued by -issuer for
// -audience, and its protected resource metadata (RFC 9728) at
// /.well-known/oauth-protected-resource/mcp. Every request needs scope
// "mcp"; the tool whoami returns the token's subject, and the tool admin
// needs scope "admin" as well: a call without it is answered 403
// insufficient_scope, so that clients step up.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// Scopes: every request needs baseScope; the admin tool needs adminScope
// too.
const (
	baseScope  = "mcp"
	adminScope = "admin"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8000", "`host:port` to listen on")
	issuer := flag.String("issuer", "", "the authorization server's issuer `URL` (its metadata names the jwks_uri)")
	audience := flag.String("audience", "", "this resource's `URL`, the audience tokens must carry (e.g. http://127.0.0.1:8000/mcp)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *addr, *issuer, *audience); err != nil {
		fmt.Fprintln(os.Stderr, "goauth:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, addr, issuer, audience string) error {
	h, s, err := handler(issuer, audience)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(os.Stderr, "goauth: serving http://%s/mcp for issuer %s\n", ln.Addr(), issuer)

	select {
	case <-ctx.Done():
	case err := <-served:
		return err
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	s.Shutdown(sctx)
	err = srv.Shutdown(sctx)
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}

// handler builds the protected endpoint and its metadata, and returns the
// fastmcp.Server behind them for shutting down.
func handler(issuer, audience string) (http.Handler, *fastmcp.Server, error) {
	if issuer == "" || audience == "" {
		return nil, nil, errors.New("-issuer and -audience are required")
	}
	verifier, err := auth.NewJWTVerifier(auth.JWTOptions{Issuer: issuer, Audience: audience})
	if err != nil {
		return nil, nil, err
	}
	metadata, err := auth.MetadataHandler(&auth.ProtectedResourceMetadata{
		Resource:             audience,
		AuthorizationServers: []string{issuer},
		ScopesSupported:      []string{baseScope, adminScope},
		ResourceName:         "fastmcp interop (standalone auth middleware)",
	})
	if err != nil {
		return nil, nil, err
	}
	metadataPath, err := auth.WellKnownPath(audience)
	if err != nil {
		return nil, nil, err
	}
	metadataURL, err := auth.WellKnownURL(audience)
	if err != nil {
		return nil, nil, err
	}
	requireToken := auth.RequireBearerToken(verifier, &auth.BearerOptions{
		ResourceMetadataURL: metadataURL,
		Scopes:              []string{baseScope},
	})

	s := fastmcp.New("goauth", "1.0.0",
		fastmcp.HTTPPrincipal(auth.PrincipalFromRequest),
		// The legacy HTTP+SSE endpoints live under the resource's path, so
		// that clients accept its metadata for them too.
		fastmcp.HTTPEndpoints(func(c *fastmcp.HTTPConfig) { c.SSEPath, c.MessagePath = "/mcp/sse", "/mcp/message" }))
	s.Tool("whoami", whoami, fastmcp.Description("Return the subject of the caller's access token"))
	s.Tool("admin", admin, fastmcp.Description(`Needs scope "admin"; returns the scopes granted`))

	mux := http.NewServeMux()
	mux.Handle(metadataPath, metadata)
	protected := requireToken(requireScopeFor("admin", metadataURL, []string{baseScope, adminScope}, s))
	for _, p := range []string{"/mcp", "/mcp/sse", "/mcp/message"} {
		mux.Handle(p, protected)
	}
	return mux, s, nil
}

func whoami(ctx *fastmcp.Context) (string, error) {
	info := ctx.Auth()
	if info == nil {
		return "", errors.New("no verified token")
	}
	return info.Subject, nil
}

func admin(ctx *fastmcp.Context) (string, error) {
	info := ctx.Auth()
	if info == nil || !info.HasScopes(adminScope) {
		return "", fmt.Errorf("scope %q is required", adminScope) // requireScopeFor answers first over HTTP
	}
	return fmt.Sprintf("admin for %s with scopes %v", info.Subject, info.Scopes), nil
}

// requireScopeFor answers 403 insufficient_scope, naming scopes, to a
// tools/call of tool whose token lacks one of them: at the HTTP layer,
// where the client can step up and retry. The tool's name comes from the
// Mcp-Method and Mcp-Name headers (2026-07-28) or from the JSON-RPC
// request in the body, which it reads and puts back.
func requireScopeFor(tool, metadataURL string, scopes []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := auth.TokenInfoFrom(r.Context())
		if r.Method != http.MethodPost || info == nil || info.HasScopes(scopes...) {
			next.ServeHTTP(w, r)
			return
		}
		method, name := r.Header.Get("Mcp-Method"), r.Header.Get("Mcp-Name")
		if method == "" {
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4<<20))
			if err != nil {
				http.Error(w, "cannot read the request", http.StatusRequestEntityTooLarge)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			var req struct {
				Method string `json:"method"`
				Params struct {
					Name string `json:"name"`
				} `json:"params"`
			}
			if json.Unmarshal(body, &req) == nil { // batches and other shapes go on to the server
				method, name = req.Method, req.Params.Name
			}
		}
		if method == "tools/call" && name == tool {
			auth.WriteInsufficientScope(w, metadataURL, scopes...)
			return
		}
		next.ServeHTTP(w, r)
	})
}
