package fastmcp_test

import (
	"context"
	"crypto/tls"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/transport"
)

// The snippets of docs/http.md, each in a function that compiles (go vet
// and staticcheck read them too); TestDocSnippets checks that the page
// shows them line for line. They are not run: they listen on fixed ports,
// need certificates or a token. The tests of http.go run the same calls.
var _ = []any{docHTTPMount, docHTTPOptions, docHTTPLowlevel, docHTTPPrincipal, docHTTPRequest, docHTTPServer, docHTTPOwnServer, docHTTPBearer}

func docHTTPMount(ctx context.Context, healthz http.HandlerFunc) {
	s := fastmcp.New("app", "1.0.0")
	// ... register tools ...

	mux := http.NewServeMux()
	mux.Handle("/mcp", s) // Streamable HTTP, every protocol revision
	mux.Handle("/sse", s) // the legacy HTTP+SSE transport (2024-11-05), if you want it
	mux.Handle("/message", s)
	mux.HandleFunc("GET /healthz", healthz)
	srv := &http.Server{Addr: "localhost:8000", Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.ListenAndServe()
	// ... at shutdown:
	s.Shutdown(ctx)   // first: end listen and SSE streams, let calls in flight finish, close sessions, run Lifespan cleanup
	srv.Shutdown(ctx) // then the connections (open streams would otherwise hold it until ctx ends)
}

func docHTTPOptions(myStore store.EventStore) *fastmcp.Server {
	s := fastmcp.New("app", "1.0.0", fastmcp.HTTPPath("/api/mcp"),
		fastmcp.SessionIdleTimeout(time.Hour), // a setting: also -session-idle-timeout, FASTMCP_SESSION_IDLE_TIMEOUT
		fastmcp.HTTPEndpoints(func(c *fastmcp.HTTPConfig) {
			c.NoSSE = true // no legacy endpoints
		}),
		fastmcp.SharedStores(&store.Stores{Events: myStore})) // resumability across restarts
	return s
}

func docHTTPLowlevel() {
	ll := lowlevel.NewServer(protocol.Implementation{Name: "raw", Version: "1"}, nil)
	http.Handle("/mcp", transport.NewStreamableHandler(ll.Connect, nil))
}

// subjectFrom stands for what an authentication middleware put in the
// request's context.
func subjectFrom(ctx context.Context) string { s, _ := ctx.Value(subjectKey{}).(string); return s }

type subjectKey struct{}

func docHTTPPrincipal() *fastmcp.Server {
	s := fastmcp.New("app", "1.0.0", fastmcp.HTTPPrincipal(func(r *http.Request) string {
		return subjectFrom(r.Context()) // set by your authentication middleware
	}))
	return s
}

func docHTTPRequest(s *fastmcp.Server) {
	s.Tool("whoami", func(ctx *fastmcp.Context) (string, error) {
		r := ctx.HTTPRequest()
		if r == nil {
			return "local", nil
		}
		return r.Header.Get("X-User") + " from " + r.RemoteAddr, nil
	})
}

func docHTTPServer(certs interface {
	GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error)
}) *fastmcp.Server {
	s := fastmcp.New("app", "1.0.0", fastmcp.HTTPServer(func(srv *http.Server) {
		srv.TLSConfig = &tls.Config{GetCertificate: certs.GetCertificate} // serves HTTPS
		srv.ErrorLog = log.New(os.Stderr, "http: ", 0)
	}))
	return s
}

func docHTTPOwnServer(s *fastmcp.Server) {
	srv := &http.Server{Addr: ":8443", Handler: s, ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	log.Fatal(srv.ListenAndServeTLS("cert.pem", "key.pem"))
}

func docHTTPBearer(ctx context.Context, token string) (*client.Client, error) {
	c, err := client.ConnectHTTP(ctx, "https://example.com/mcp",
		client.WithHTTPHeader(http.Header{"Authorization": {"Bearer " + token}}))
	return c, err
}
