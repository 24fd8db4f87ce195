// Command oauth-client logs in to an MCP server protected by OAuth, with
// the user's browser, and calls a tool:
//
//	go run ./examples/oauth-client -url https://mcp.example.com/mcp -tool whoami
//
// The first 401 starts the login: the client discovers the server's
// authorization server, registers itself there, opens the authorization
// page in the browser and waits on a loopback port for the answer. Tokens
// are kept in -tokens (0600), so the next run does not log in again, and
// are refreshed when they expire.
//
// Without -url it runs a demo on 127.0.0.1: an authorization server that
// approves every login at once (the SDK's test one, internal/oauthtest,
// there only to make the demo self-contained) and a server that verifies
// its JWT access tokens with auth.NewJWTVerifier, whose tool whoami says
// whose token it got. It connects twice, the second time with the tokens the
// first one stored, and prints:
//
//	login: opening the authorization page
//	first connection: whoami → demo-user
//	second connection: whoami → demo-user
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/oauthclient"
)

func main() {
	serverURL := flag.String("url", "", "the MCP server's URL; empty runs the demo")
	tool := flag.String("tool", "whoami", "the tool to call (without arguments)")
	tokens := flag.String("tokens", "~/.config/fastmcp-oauth-client/tokens.json", "the token file")
	printURL := flag.Bool("print", false, "print the authorization URL instead of opening a browser")
	flag.Parse()
	ctx := context.Background()
	openURL := oauthclient.OpenBrowser
	if *printURL {
		openURL = func(_ context.Context, u string) error {
			fmt.Fprintln(os.Stderr, "Open this page to log in:", u)
			return nil
		}
	}
	var err error
	if *serverURL == "" {
		err = runDemo(ctx, os.Stdout, openURL, filepath.Join(os.TempDir(), "fastmcp-oauth-demo-tokens.json"))
	} else {
		err = call(ctx, os.Stdout, *serverURL, *tool, oauth(os.Stdout, openURL, *tokens), "")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "oauth-client:", err)
		os.Exit(1)
	}
}

// oauth is the client's OAuth configuration: its name, a token file, and
// the browser (announced on out).
func oauth(out io.Writer, openURL func(context.Context, string) error, tokens string) oauthclient.Config {
	return oauthclient.Config{
		ClientName: "fastmcp oauth-client example",
		Store:      oauthclient.NewFileStore(tokens),
		OpenURL: func(ctx context.Context, authURL string) error {
			fmt.Fprintln(out, "login: opening the authorization page")
			return openURL(ctx, authURL)
		},
	}
}

// call connects to url with OAuth, calls tool and prints its answer.
func call(ctx context.Context, out io.Writer, url, tool string, cfg oauthclient.Config, label string) error {
	c, err := client.ConnectHTTP(ctx, url, client.WithInfo("oauth-client", "1.0.0"), client.OAuth(cfg))
	if oe, ok := errors.AsType[*oauthclient.Error](err); ok {
		return fmt.Errorf("could not log in (%s): %w", oe.Op, err)
	}
	if err != nil {
		return err
	}
	defer c.Close()
	res, err := c.CallTool(ctx, tool, nil)
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("%s failed: %s", tool, res.Text())
	}
	fmt.Fprintf(out, "%s%s → %s\n", label, tool, res.Text())
	return nil
}
