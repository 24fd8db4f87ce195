// Command oauthclient is the OAuth case of the interop matrix: fastmcp's
// client (client.OAuth) logs in to a server protected by another SDK's
// authorization code flow (the TypeScript SDK v1's simpleStreamableHttp
// example with --oauth --oauth-strict and its demo authorization server,
// which approves at once) and calls its greet tool. It prints one line per
// check and exits 1 when any fails.
//
//	oauthclient -url http://localhost:PORT/mcp
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/oauthclient"
)

func main() {
	url := flag.String("url", "", "the protected server's URL")
	flag.Parse()
	if *url == "" {
		fmt.Fprintln(os.Stderr, "usage: oauthclient -url URL")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var logins atomic.Int32
	// The browser: the demo authorization server redirects at once to
	// the client's loopback listener.
	follow := func(ctx context.Context, authURL string) error {
		logins.Add(1)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
	cfg := oauthclient.Config{ClientName: "fastmcp interop", Store: oauthclient.NewMemoryStore(), OpenURL: follow}
	failed := false
	check := func(name string, err error) {
		if err != nil {
			failed = true
			fmt.Printf("FAIL %s: %v\n", name, err)
			return
		}
		fmt.Printf("ok   %s\n", name)
	}
	greet := func() error {
		c, err := client.ConnectHTTP(ctx, *url, client.OAuth(cfg))
		if err != nil {
			return err
		}
		defer c.Close()
		res, err := c.CallTool(ctx, "greet", map[string]string{"name": "fastmcp"})
		if err != nil {
			return err
		}
		if !strings.Contains(res.Text(), "fastmcp") {
			return fmt.Errorf("greet answered %q", res.Text())
		}
		return nil
	}
	err := greet()
	if err == nil && logins.Load() != 1 {
		err = fmt.Errorf("%d logins, want 1", logins.Load())
	}
	check("login (resource and server metadata, registration, PKCE, resource, token) and greet", err)
	err = greet()
	if err == nil && logins.Load() != 1 {
		err = errors.New("the second connection logged in again")
	}
	check("second connection with the stored token", err)
	if failed {
		os.Exit(1)
	}
}
