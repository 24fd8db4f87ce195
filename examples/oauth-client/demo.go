package main

import (
	"context"
	"io"
	"net"
	"os"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
)

// runDemo starts a demo authorization server and a protected MCP server,
// then connects twice: the first time logs in through openURL, the second
// uses the tokens stored in the token file.
//
// The authorization server is the SDK's own test one (internal/oauthtest),
// which approves every login at once as demo-user: it is only here to make
// the demo self-contained, so that there is nothing to set up. In a real
// setup it is your identity provider, and only the issuer URL below
// changes.
func runDemo(ctx context.Context, out io.Writer, openURL func(context.Context, string) error, tokens string) error {
	os.Remove(tokens) // a fresh demo logs in
	as, err := oauthtest.New(oauthtest.Options{Subject: "demo-user"})
	if err != nil {
		return err
	}
	if err := as.Start(""); err != nil {
		return err
	}
	defer as.Close()

	// The MCP server, protected by the authorization server's tokens:
	// fastmcp.Auth checks them on every request (signature, issuer,
	// audience, expiry) and publishes the metadata that sends clients to
	// the authorization server.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mcpURL := "http://" + ln.Addr().String()
	verifier, err := auth.NewJWTVerifier(auth.JWTOptions{Issuer: as.URL(), Audience: mcpURL + "/mcp"})
	if err != nil {
		ln.Close()
		return err
	}
	s := fastmcp.New("demo", "1.0.0", fastmcp.Listener(ln), fastmcp.Auth(auth.Protect(verifier, func(c *auth.ProtectOptions) {
		c.Metadata.Resource = mcpURL + "/mcp"
		c.Metadata.AuthorizationServers = []string{as.URL()}
	})))
	type none struct{}
	s.Tool("whoami", func(ctx *fastmcp.Context, _ none) (string, error) { return ctx.Auth().Subject, nil },
		fastmcp.Description("Say whose token the call came with"))
	if err := s.Start(ctx); err != nil { // ready before it listens
		ln.Close()
		return err
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- s.Run(sctx) }()
	defer func() { stop(); <-served }()

	cfg := oauth(out, openURL, tokens)
	if err := call(ctx, out, mcpURL+"/mcp", "whoami", cfg, "first connection: "); err != nil {
		return err
	}
	return call(ctx, out, mcpURL+"/mcp", "whoami", cfg, "second connection: ")
}
