// Command oauth-proxy protects an MCP server with an OAuth proxy in front
// of an identity provider that MCP clients cannot use directly (GitHub,
// Google, Entra, any OpenID provider): clients register with the proxy's
// authorization server (package oauthserver) and get its tokens for the
// MCP endpoint, while users sign in at the upstream through one client
// registered there. The whoami tool shows the user and, for GitHub, calls
// GitHub's API with the user's upstream token, which never leaves the
// server.
//
//	oauth-proxy -upstream github -upstream-client-id ID -upstream-client-secret SECRET
//	oauth-proxy -upstream-issuer https://accounts.google.com -addr 127.0.0.1:8000
//
// Register http://HOST:PORT/oauth/callback (of -addr, or -issuer) as the
// redirect URI of the upstream client. The client ID and secret may come
// from FASTMCP_UPSTREAM_CLIENT_ID and FASTMCP_UPSTREAM_CLIENT_SECRET
// instead of the flags; -redis-url (or FASTMCP_REDIS_URL) keeps the state
// in Redis so that several processes act as one; -client ID=REDIRECT_URI
// pre-registers a public MCP client.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/oauthserver"
	"github.com/fastmcp-go/fastmcp/oauthserver/oauthproxy"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// config is what the flags set.
type config struct {
	addr, issuer, redisURL           string
	upstream, upstreamIssuer         string
	upstreamClientID, upstreamSecret string
	clients                          []oauthserver.Client
}

// clientFlag collects -client ID=REDIRECT_URI flags.
type clientFlag struct{ c *config }

func (f clientFlag) String() string { return "" }

func (f clientFlag) Set(v string) error {
	id, redirect, ok := strings.Cut(v, "=")
	if !ok || id == "" || redirect == "" {
		return errors.New("want ID=REDIRECT_URI")
	}
	f.c.clients = append(f.c.clients, oauthserver.Client{ID: id, RedirectURIs: []string{redirect}})
	return nil
}

func parseFlags(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("oauth-proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8000", "`HOST:PORT` to listen on; the issuer is http://HOST:PORT, the MCP endpoint http://HOST:PORT/mcp")
	fs.StringVar(&c.issuer, "issuer", "", "the public `URL` clients reach the server at (default http://HOST:PORT of -addr)")
	fs.StringVar(&c.upstream, "upstream", "", "a ready-made upstream `NAME`: github (else give -upstream-issuer)")
	fs.StringVar(&c.upstreamIssuer, "upstream-issuer", "", "the `URL` of the upstream OpenID provider (discovered)")
	fs.StringVar(&c.upstreamClientID, "upstream-client-id", getenv("FASTMCP_UPSTREAM_CLIENT_ID"), "the proxy's client `ID` at the upstream (default $FASTMCP_UPSTREAM_CLIENT_ID)")
	fs.StringVar(&c.upstreamSecret, "upstream-client-secret", getenv("FASTMCP_UPSTREAM_CLIENT_SECRET"), "its `SECRET` (default $FASTMCP_UPSTREAM_CLIENT_SECRET)")
	fs.Var(clientFlag{&c}, "client", "pre-register a public MCP client: `ID=REDIRECT_URI` (repeatable; others register dynamically)")
	fs.StringVar(&c.redisURL, "redis-url", getenv("FASTMCP_REDIS_URL"), "keep the state in Redis at `URL` (default $FASTMCP_REDIS_URL; none: in memory)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	case (c.upstream == "") == (c.upstreamIssuer == ""):
		return c, errors.New("give one of -upstream github and -upstream-issuer URL")
	case c.upstream != "" && c.upstream != "github":
		return c, fmt.Errorf("-upstream %q: the ready-made upstream here is github; give any OpenID provider with -upstream-issuer", c.upstream)
	case c.upstreamClientID == "":
		return c, errors.New("-upstream-client-id (or FASTMCP_UPSTREAM_CLIENT_ID) is required: the proxy's client at the upstream")
	}
	if c.issuer == "" {
		c.issuer = "http://" + c.addr
	}
	c.issuer = strings.TrimSuffix(c.issuer, "/")
	return c, nil
}

// upstream returns the identity provider c names.
func upstream(ctx context.Context, c config) (oauthproxy.Upstream, error) {
	if c.upstream == "github" {
		return oauthproxy.GitHub(c.upstreamClientID, c.upstreamSecret), nil
	}
	return oauthproxy.OIDC(ctx, c.upstreamIssuer, c.upstreamClientID, c.upstreamSecret, nil)
}

// Identity is what whoami answers.
type Identity struct {
	Subject  string `json:"subject" jsonschema:"description=the signed-in user as the upstream names them"`
	ClientID string `json:"client_id" jsonschema:"description=the MCP client the token was issued to"`
	Upstream string `json:"upstream" jsonschema:"description=what the upstream said with the user's upstream token"`
}

// newServer returns the MCP server, protected by the proxy on the same
// origin.
func newServer(ctx context.Context, c config, opts ...fastmcp.Option) (*fastmcp.Server, error) {
	up, err := upstream(ctx, c)
	if err != nil {
		return nil, err
	}
	var kv store.KV
	if c.redisURL != "" {
		st, err := redisstore.Open(ctx, c.redisURL, nil)
		if err != nil {
			return nil, fmt.Errorf("-redis-url: %w", err)
		}
		kv = st.KV
		opts = append(opts, fastmcp.SharedStores(st)) // closed by the server at shutdown
	}
	as, proxy, err := oauthproxy.New(oauthproxy.Config{Upstream: up},
		oauthserver.Config{Issuer: c.issuer, Resources: []string{c.issuer + "/mcp"}, Store: kv, Clients: c.clients})
	if err != nil {
		return nil, err
	}
	s := fastmcp.New("oauth-proxy", "1.0.0", append(opts, fastmcp.Auth(as.Protect(c.issuer+"/mcp")))...)
	s.Tool("whoami", func(ctx *fastmcp.Context) (Identity, error) {
		info := ctx.Auth()
		tok, err := proxy.UpstreamToken(ctx)
		if err != nil {
			return Identity{}, err
		}
		id := Identity{Subject: info.Subject, ClientID: info.ClientID, Upstream: "an upstream token is kept for you"}
		if c.upstream == "github" {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.github.com/user", nil)
			tok.SetAuthHeader(req)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return Identity{}, err
			}
			resp.Body.Close()
			id.Upstream = "GET https://api.github.com/user: " + resp.Status
		}
		return id, nil
	}, fastmcp.Description("Say who you are, here and at the upstream"), fastmcp.ReadOnly())
	return s, nil
}

func main() {
	c, err := parseFlags(os.Args[1:], os.Getenv, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "oauth-proxy:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := newServer(ctx, c, fastmcp.Addr(c.addr))
	if err != nil {
		fmt.Fprintln(os.Stderr, "oauth-proxy:", err)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, "oauth-proxy: MCP endpoint %s/mcp; upstream redirect URI %s%s\n", c.issuer, c.issuer, oauthproxy.DefaultCallbackPath)
	if err := s.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "oauth-proxy:", err)
		os.Exit(1)
	}
}
