// Command auth-server is an MCP server protected by OAuth 2.1: every
// request to its endpoint needs an access token (a JWT) issued by the
// authorization server -issuer for the resource -audience. Clients find
// the issuer in the protected resource metadata the server publishes at
// /.well-known/oauth-protected-resource/mcp, after a 401 that names it.
//
//	go run ./examples/auth-server -issuer https://idp.example.com
//	go run ./examples/auth-server -addr 127.0.0.1:8000 -issuer http://127.0.0.1:9000 -audience http://127.0.0.1:8000/mcp
//
// Flags:
//
//	-addr HOST:PORT  where to listen (default 127.0.0.1:8000)
//	-issuer URL      the OAuth/OIDC issuer; its metadata must name a jwks_uri
//	                 (https, or http on a loopback host)
//	-audience URL    the resource: the "aud" tokens must carry, and the
//	                 endpoint's URL (default http://<addr>/mcp)
//	-scope SCOPE     the base scope every token needs, named in the 401
//	                 challenge so that clients ask for it (default "mcp";
//	                 "" for none)
//
// Tools: whoami returns the token's subject, client and scopes; admin
// needs the scope "admin" as well. The metadata lists both scopes
// (scopes_supported) and a 403 for admin names both, so a client asks the
// authorization server for "mcp" first and for "mcp admin" to use admin.
// Configure the authorization server to issue tokens for the audience
// with these scopes (docs/auth.md shows it for common providers).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// config is what the flags set.
type config struct {
	addr, issuer, audience, scope string
}

// parseFlags reads the command line (without the program name); usage and
// errors go to stderr.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("auth-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8000", "`HOST:PORT` to listen on")
	fs.StringVar(&c.issuer, "issuer", "", "`URL` of the OAuth/OIDC issuer whose metadata names a jwks_uri (required)")
	fs.StringVar(&c.audience, "audience", "", "`URL` of this resource, the audience of its tokens (default http://<addr>/mcp)")
	fs.StringVar(&c.scope, "scope", "mcp", "the base `SCOPE` every token needs, named in 401 challenges (\"\" for none)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if c.issuer == "" {
		return c, errors.New("-issuer is required: the URL of the authorization server that issues the tokens")
	}
	if c.audience == "" {
		c.audience = "http://" + c.addr + "/mcp"
	}
	return c, nil
}

// Identity is what whoami returns: who the access token stands for.
type Identity struct {
	Subject  string   `json:"subject" jsonschema:"description=the token's subject (sub)"`
	ClientID string   `json:"client_id" jsonschema:"description=the OAuth client the token was issued to"`
	Scopes   []string `json:"scopes" jsonschema:"description=the scopes the token grants"`
}

// whoami returns the identity of the caller's access token.
func whoami(ctx *fastmcp.Context) (Identity, error) {
	info := ctx.Auth()
	if info == nil { // only over HTTP with the Auth option
		return Identity{}, errors.New("this request carried no verified access token")
	}
	return Identity{Subject: info.Subject, ClientID: info.ClientID, Scopes: info.Scopes}, nil
}

// adminScope is the scope the admin tool needs.
const adminScope = "admin"

// admin is an operation only tokens with the scope "admin" may run: the
// server refuses the others before it runs (RequireScopes), with a 403
// that lets the client ask for the scope.
func admin(ctx *fastmcp.Context) (string, error) {
	return "admin access granted to " + ctx.Auth().Subject, nil
}

// newServer returns the protected server of c.
func newServer(c config, opts ...fastmcp.Option) *fastmcp.Server {
	s := fastmcp.New("auth-server", "1.0.0", append(opts,
		fastmcp.Auth(auth.Protect(auth.JWT(c.issuer, c.audience), func(a *auth.ProtectOptions) {
			a.Metadata.ResourceName = "fastmcp auth-server example"
			if c.scope != "" {
				a.Bearer.Scopes = []string{c.scope}
			}
		})))...)
	s.Tool("whoami", whoami, fastmcp.Description("Say who the access token stands for: subject, client and scopes"), fastmcp.ReadOnly())
	s.Tool("admin", admin, fastmcp.Description("An administrative operation; needs the scope \"admin\""), fastmcp.RequireScopes(adminScope))
	return s
}

func main() {
	c, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "auth-server:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newServer(c, fastmcp.Addr(c.addr)).Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "auth-server:", err)
		os.Exit(1)
	}
}
