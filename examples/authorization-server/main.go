// Command authorization-server serves a standalone OAuth authorization
// server (package oauthserver) and an MCP endpoint it protects, on one
// origin: MCP clients discover the server from the endpoint's 401,
// register (or use a pre-registered client ID), send the user through the
// login and consent pages, and call the whoami tool with the token.
//
// The login is DemoLogin: it asks only a user name, without a password.
// It is a demo: a real deployment gives oauthserver.Config a Login that
// checks who the user is (or puts the server behind an upstream identity
// provider with package oauthproxy).
//
//	authorization-server -addr 127.0.0.1:8000 -client my-app=http://127.0.0.1:3000/callback
//
// With -redis-url (or FASTMCP_REDIS_URL) its state (clients, codes,
// grants, keys) lives in Redis, so several processes act as one behind a
// load balancer; -issuer is then the URL clients use.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/oauthserver"
)

// config is what the flags set.
type config struct {
	addr     string
	issuer   string
	redisURL string
	clients  []oauthserver.Client
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
	fs := flag.NewFlagSet("authorization-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8000", "`HOST:PORT` to listen on; the issuer is http://HOST:PORT, the MCP endpoint http://HOST:PORT/mcp")
	fs.StringVar(&c.issuer, "issuer", "", "the public `URL` clients reach the server at (default http://HOST:PORT of -addr): replicas behind a load balancer share it")
	fs.Var(clientFlag{&c}, "client", "pre-register a public client: `ID=REDIRECT_URI` (repeatable)")
	fs.StringVar(&c.redisURL, "redis-url", getenv("FASTMCP_REDIS_URL"), "keep the state in Redis at `URL` (default $FASTMCP_REDIS_URL; none: in memory)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if c.issuer == "" {
		c.issuer = "http://" + c.addr
	}
	c.issuer = strings.TrimSuffix(c.issuer, "/")
	return c, nil
}

// Identity is what whoami answers.
type Identity struct {
	Subject  string   `json:"subject" jsonschema:"description=the signed-in user"`
	ClientID string   `json:"client_id" jsonschema:"description=the OAuth client the token was issued to"`
	Scopes   []string `json:"scopes,omitempty" jsonschema:"description=the scopes the token grants"`
}

func whoami(ctx *fastmcp.Context) (Identity, error) {
	info := ctx.Auth()
	if info == nil {
		return Identity{}, errors.New("this request carried no verified access token")
	}
	return Identity{Subject: info.Subject, ClientID: info.ClientID, Scopes: info.Scopes}, nil
}

// newServer returns the MCP server, protected by an authorization server
// on the same origin.
func newServer(ctx context.Context, c config, stderr io.Writer, opts ...fastmcp.Option) (*fastmcp.Server, func(), error) {
	issuer := c.issuer
	kv, shared, closeKV, err := openStore(ctx, c.redisURL)
	if err != nil {
		return nil, nil, err
	}
	as, err := oauthserver.New(oauthserver.Config{
		Issuer:    issuer,
		Resources: []string{issuer + "/mcp"},
		Login:     oauthserver.DemoLogin(), // DEMO: no password; use a real Login in production
		Clients:   c.clients,
		Store:     kv,
	})
	if err != nil {
		closeKV()
		return nil, nil, err
	}
	fmt.Fprintf(stderr, "authorization-server: DEMO login (no password) at %s; MCP endpoint %s/mcp\n", issuer, issuer)
	s := fastmcp.New("authorization-server", "1.0.0", append(append(opts, shared...), fastmcp.Auth(as.Protect(issuer+"/mcp")))...)
	s.Tool("whoami", whoami, fastmcp.Description("Say who the access token stands for"), fastmcp.ReadOnly())
	return s, closeKV, nil
}

func main() {
	c, err := parseFlags(os.Args[1:], os.Getenv, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "authorization-server:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, closeKV, err := newServer(ctx, c, os.Stderr, fastmcp.Addr(c.addr))
	if err != nil {
		fmt.Fprintln(os.Stderr, "authorization-server:", err)
		os.Exit(2)
	}
	defer closeKV()
	if err := s.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "authorization-server:", err)
		os.Exit(1)
	}
}
