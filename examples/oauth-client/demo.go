package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// runDemo starts a demo authorization server and a protected MCP server,
// then connects twice: the first time logs in through openURL, the second
// uses the tokens stored in the token file.
func runDemo(ctx context.Context, out io.Writer, openURL func(context.Context, string) error, tokens string) error {
	os.Remove(tokens) // a fresh demo logs in
	as := &demoAS{codes: map[string]string{}, tokens: map[string]bool{}}
	asURL, stopAS, err := serve(as.handler())
	if err != nil {
		return err
	}
	defer stopAS()

	// The MCP server, protected by the demo's tokens: fastmcp.Auth checks
	// them on every request and publishes the metadata that sends clients
	// to the authorization server.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mcpURL := "http://" + ln.Addr().String()
	s := fastmcp.New("demo", "1.0.0", fastmcp.Auth(auth.Protect(as, func(c *auth.ProtectOptions) {
		c.Metadata.Resource = mcpURL + "/mcp"
		c.Metadata.AuthorizationServers = []string{asURL}
	})))
	type none struct{}
	s.Tool("whoami", func(ctx *fastmcp.Context, _ none) (string, error) { return ctx.Auth().Subject, nil },
		fastmcp.Description("Say whose token the call came with"))
	if err := s.Start(ctx); err != nil { // ready before it listens
		return err
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- s.ServeListener(sctx, ln) }()
	defer func() { stop(); <-served }()

	cfg := oauth(out, openURL, tokens)
	if err := call(ctx, out, mcpURL+"/mcp", "whoami", cfg, "first connection: "); err != nil {
		return err
	}
	return call(ctx, out, mcpURL+"/mcp", "whoami", cfg, "second connection: ")
}

// serve serves h on a free loopback port until stop is called.
func serve(h http.Handler) (base string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	return "http://" + ln.Addr().String(), func() { srv.Close(); <-done }, nil
}

// demoAS is an authorization server that approves every login at once as
// demo-user: metadata (RFC 8414), registration (RFC 7591), the
// authorization endpoint, and the token endpoint checking PKCE. It also
// verifies the tokens it issued, for the resource server.
type demoAS struct {
	mu     sync.Mutex
	n      int
	codes  map[string]string // code → code_challenge
	tokens map[string]bool
}

// Verify accepts the tokens it issued (auth.TokenVerifier).
func (as *demoAS) Verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	as.mu.Lock()
	defer as.mu.Unlock()
	if !as.tokens[token] {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{Subject: "demo-user"}, nil
}

func (as *demoAS) handler() http.Handler {
	reply := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		u := "http://" + r.Host
		reply(w, http.StatusOK, map[string]any{
			"issuer": u, "authorization_endpoint": u + "/authorize", "token_endpoint": u + "/token",
			"registration_endpoint": u + "/register", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"},
			"authorization_response_iss_parameter_supported": true,
		})
	})
	mux.HandleFunc("POST /register", func(w http.ResponseWriter, r *http.Request) {
		var md struct {
			RedirectURIs []string `json:"redirect_uris"`
		}
		if json.NewDecoder(r.Body).Decode(&md) != nil || len(md.RedirectURIs) == 0 {
			reply(w, http.StatusBadRequest, map[string]string{"error": "invalid_redirect_uri"})
			return
		}
		reply(w, http.StatusCreated, map[string]any{"client_id": "demo-client", "redirect_uris": md.RedirectURIs, "token_endpoint_auth_method": "none"})
	})
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		back, err := url.Parse(q.Get("redirect_uri"))
		if err != nil || q.Get("code_challenge_method") != "S256" {
			http.Error(w, "bad authorization request", http.StatusBadRequest)
			return
		}
		as.mu.Lock()
		as.n++
		code := fmt.Sprint("code-", as.n)
		as.codes[code] = q.Get("code_challenge")
		as.mu.Unlock()
		back.RawQuery = url.Values{"code": {code}, "state": {q.Get("state")}, "iss": {"http://" + r.Host}}.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			reply(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
			return
		}
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		as.mu.Lock()
		defer as.mu.Unlock()
		challenge, ok := as.codes[r.PostForm.Get("code")]
		delete(as.codes, r.PostForm.Get("code"))
		if !ok || challenge != base64.RawURLEncoding.EncodeToString(sum[:]) {
			reply(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		as.n++
		tok := fmt.Sprint("demo-token-", as.n)
		as.tokens[tok] = true
		reply(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600})
	})
	return mux
}
