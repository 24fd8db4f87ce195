// Command elicitation shows a tool that asks the user a question in the
// middle of a call (elicitation/create), and a client that answers it. Run
// it with
//
//	go run ./examples/elicitation
//
// The server runs in the same process over HTTP on 127.0.0.1 (a free port).
// The client's handler stands for a host's dialog: it confirms deletions
// under /tmp and declines the rest. It prints:
//
//	asked: Delete /tmp/cache? (fields: confirm, reason)
//	answered: accept
//	result: deleted /tmp/cache (reason: stale)
//	asked: Delete /home/ada? (fields: confirm, reason)
//	answered: decline
//	result: kept /home/ada: the user declined
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"slices"
	"strings"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// DeleteArgs are the arguments of the delete tool.
type DeleteArgs struct {
	Path string `json:"path" jsonschema:"description=the path to delete" validate:"min=1"`
}

// Confirmation is the form the user fills in: a flat struct of strings,
// numbers, booleans and enums becomes the requested schema.
type Confirmation struct {
	Confirm bool   `json:"confirm" jsonschema:"description=Really delete?"`
	Reason  string `json:"reason,omitempty" jsonschema:"description=Why (for the audit log)"`
}

func deletePath(ctx *fastmcp.Context, in DeleteArgs) (string, error) {
	var form Confirmation
	action, err := ctx.Elicit("Delete "+in.Path+"?", &form)
	if err != nil {
		return "", err // e.g. fastmcp.ErrElicitationUnsupported: the client cannot ask
	}
	switch {
	case action == fastmcp.ElicitAccept && form.Confirm:
		return fmt.Sprintf("deleted %s (reason: %s)", in.Path, form.Reason), nil
	case action == fastmcp.ElicitAccept:
		return "kept " + in.Path + ": not confirmed", nil
	}
	return "kept " + in.Path + ": the user " + string(action) + "d", nil
}

// answer is the client's elicitation handler: a real host shows req.Message
// and a form built from req.RequestedSchema to the user.
func answer(out io.Writer) client.ElicitationHandler {
	return func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
		var schema struct {
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(req.RequestedSchema, &schema); err != nil {
			return nil, err
		}
		fields := slices.Sorted(maps.Keys(schema.Properties))
		fmt.Fprintf(out, "asked: %s (fields: %s)\n", req.Message, strings.Join(fields, ", "))
		if !strings.HasPrefix(req.Message, "Delete /tmp/") {
			fmt.Fprintln(out, "answered: decline")
			return &client.ElicitResult{Action: "decline"}, nil
		}
		content, err := json.Marshal(Confirmation{Confirm: true, Reason: "stale"})
		if err != nil {
			return nil, err
		}
		fmt.Fprintln(out, "answered: accept")
		return &client.ElicitResult{Action: "accept", Content: content}, nil
	}
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "elicitation:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free loopback port
	if err != nil {
		return err
	}
	s := fastmcp.New("files", "1.0.0", fastmcp.Listener(ln))
	s.Tool("delete", deletePath, fastmcp.Description("Delete a path, after asking the user"))
	url, stop, err := serve(ctx, s, ln)
	if err != nil {
		return err
	}
	defer stop()

	c, err := client.ConnectHTTP(ctx, url, client.WithElicitation(answer(out)))
	if err != nil {
		return err
	}
	defer c.Close()
	for _, path := range []string{"/tmp/cache", "/home/ada"} {
		res, err := c.CallTool(ctx, "delete", DeleteArgs{Path: path})
		if err != nil {
			return err
		}
		fmt.Fprintln(out, "result:", res.Text())
	}
	return nil
}

// serve runs s, made with the option fastmcp.Listener(ln), until stop is
// called, and returns the URL of its MCP endpoint.
func serve(ctx context.Context, s *fastmcp.Server, ln net.Listener) (url string, stop func(), err error) {
	if err := s.Start(ctx); err != nil { // ready before the first request
		ln.Close()
		return "", nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	return "http://" + ln.Addr().String() + "/mcp", func() { cancel(); <-done }, nil
}
