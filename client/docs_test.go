package client_test

import (
	"context"
	"crypto"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
	"github.com/fastmcp-go/fastmcp/oauthclient"
)

// TestDocSnippets: every Go snippet of docs/client.md is in this file or
// in a tested Example, line for line.
func TestDocSnippets(t *testing.T) {
	t.Parallel()
	docsnippets.Check(t, []string{"../docs/client.md"},
		[]string{"docs_test.go", "example_test.go", "example_types_test.go", "example_middleware_test.go"})
}

// The snippets of docs/client.md that talk to a server of their own (a
// subprocess, a remote URL, an identity provider), each in a function
// that compiles; the Examples and the tests of this package run the same
// calls against real servers.
var _ = []any{docConnect, docResults, docBearer, docOAuth, docGrants, docMiddleware, docElicitation, docBatch}

func docConnect(ctx context.Context) error {
	c, err := client.ConnectCommand(ctx, &client.Command{Path: "./my-server", Args: []string{"serve"}},
		client.WithInfo("my-host", "1.0.0"),
		client.WithLogHandler(func(m *client.LogMessage) { log.Printf("[%s] %s", m.Level, m.Data) }),
	)
	if err != nil {
		return err
	}
	defer c.Close() // stops the subprocess: stdin closed, then SIGTERM, then SIGKILL

	for tool, err := range c.Tools(ctx) { // every page
		if err != nil {
			return err
		}
		fmt.Println(tool.Name, tool.Description)
	}
	res, err := c.CallTool(ctx, "add", map[string]int{"a": 2, "b": 3},
		client.WithProgress(func(p *client.Progress) { fmt.Println(p.Progress, p.Total) }))
	if err != nil {
		return err
	}
	fmt.Println(res.Text())
	return nil
}

func docResults(ctx context.Context, c *client.Client, src string) error {
	res, err := c.CallTool(ctx, "add", map[string]int{"a": 2, "b": 3})
	if err != nil { // a protocol failure: unknown tool, invalid params, connection lost
		return err
	}
	fmt.Println(res.Text()) // the text blocks, joined by newlines (the error message when res.IsError)
	var sum struct {
		Result int `json:"result"`
	}
	if err := res.Structured(&sum); err != nil { // errors.Is(err, client.ErrToolFailed) when res.IsError
		return err
	}

	page, err := c.ReadResource(ctx, "notes://readme")
	if err != nil {
		return err
	}
	fmt.Println(page.Text()) // the text contents (Contents has the URIs, MIME types and blobs)

	p, err := c.GetPrompt(ctx, "review", map[string]string{"code": src})
	if err != nil {
		return err
	}
	fmt.Println(p.Messages[0].Role, p.Messages[0].Text()) // or p.Text() for every message's text
	return nil
}

func docBearer(ctx context.Context) (*client.Client, error) {
	c, err := client.ConnectHTTP(ctx, "https://mcp.example.com/mcp",
		client.WithHTTPHeader(http.Header{"Authorization": {"Bearer " + os.Getenv("MCP_TOKEN")}}))
	return c, err
}

func docOAuth(ctx context.Context) (*client.Client, error) {
	c, err := client.ConnectHTTP(ctx, "https://mcp.example.com/mcp", client.OAuth(oauthclient.Config{
		ClientName:  "my-agent",
		RedirectURL: "http://127.0.0.1:0/callback", // the default; port 0 = any free port
		Scopes:      []string{"files:read"},        // asked for on top of what the server names
		Store:       oauthclient.NewFileStore("~/.config/my-agent/tokens.json"),
		OpenURL:     oauthclient.OpenBrowser, // or a func that prints the URL
	}))
	var oe *oauthclient.Error
	if errors.As(err, &oe) { // oe.Op: the step that failed; oe.Code: the server's OAuth error
		return nil, fmt.Errorf("logging in: %s: %s", oe.Op, oe.Code)
	}
	return c, err
}

func docGrants(key crypto.Signer, workloadToken, idToken func(context.Context) (string, error), idpTokenURL string) oauthclient.Config {
	cfg := oauthclient.Config{Client: &oauthclient.Registration{ClientID: "svc", PrivateKey: key}} // or ClientSecret
	cfg.Grant = oauthclient.ClientCredentials{}                                                    // client credentials
	cfg.Grant = oauthclient.JWTBearer{Assertion: workloadToken}                                    // RFC 7523, e.g. a workload identity token (SEP-1933)
	cfg.Grant = oauthclient.EnterpriseManaged{TokenEndpoint: idpTokenURL,                          // SEP-990: the IdP exchanges the user's
		IDToken: idToken, Client: &oauthclient.Registration{ClientID: "idp-client"}} // ID token for an ID-JAG (RFC 8693)
	return cfg
}

func docMiddleware(ctx context.Context, url string) (*client.Client, error) {
	timing := func(next client.SendFunc) client.SendFunc {
		return func(ctx context.Context, req *client.OutgoingRequest) (json.RawMessage, error) {
			start := time.Now()
			res, err := next(ctx, req)
			log.Printf("%s took %v (error: %v)", req.Method, time.Since(start), err)
			return res, err
		}
	}
	c, err := client.ConnectHTTP(ctx, url, client.WithMiddleware(timing))
	return c, err
}

// askUser stands for the host's own dialog.
func askUser(message string, schema json.RawMessage) bool { return len(message) > 0 && schema != nil }

func docElicitation(ctx context.Context, url string) (*client.Client, error) {
	answer := client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
		if !askUser(req.Message, req.RequestedSchema) {
			return client.DeclineElicitation(), nil
		}
		return client.AcceptElicitation(map[string]any{"confirm": true})
	})
	c, err := client.ConnectHTTP(ctx, url, answer)
	return c, err
}

func docBatch(ctx context.Context, c *client.Client) {
	var sum client.ToolResult
	calls := []*client.BatchCall{
		{Method: "tools/call", Params: map[string]any{"name": "add", "arguments": map[string]int{"a": 1, "b": 2}}, Result: &sum},
		{Method: "no/such/method"},
		{Method: "notifications/roots/list_changed", Notification: true},
	}
	if err := c.Batch(ctx, calls...); err != nil { // the batch as a whole failed
		fmt.Println(err)
		return
	}
	fmt.Println("sum:", string(sum.StructuredContent))
	fmt.Println("no/such/method:", calls[1].Err) // that call's own error
}
