// Package proxytest holds what the tests of package proxy and package
// fastmcp's mount tests share: a backend server with one of everything a
// proxy forwards, and the era pairs to run a test in.
package proxytest

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/protocol"
)

type addArgs struct {
	A int `json:"a" jsonschema:"description=first addend"`
	B int `json:"b" jsonschema:"description=second addend" validate:"gte=0"`
}

// NameArgs are the arguments of the backend's greet prompt and t template.
type NameArgs struct {
	Name string `json:"name" jsonschema:"description=who to greet"`
}

// Sum is the result of the backend's add tool.
type Sum struct {
	Sum int `json:"sum"`
}

// Backend is the server the proxy tests put behind a proxy: one tool,
// prompt and resource for each feature the proxy forwards. The channel
// gets the cause of the block tool's cancellation.
func Backend(t *testing.T) (*fastmcp.Server, chan error) {
	s := fastmcp.New("test", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	cancelled := make(chan error, 1)
	s.Tool("add", func(in addArgs) Sum { return Sum{in.A + in.B} },
		fastmcp.Description("adds"), fastmcp.ReadOnly(), fastmcp.Meta(protocol.Meta{"x/kept": "yes"}))
	s.Tool("chatty", func(ctx *fastmcp.Context) (string, error) {
		ctx.Info("working")
		if err := ctx.Progress(1, 2, "half"); err != nil {
			return "", err
		}
		return "done", nil
	}, fastmcp.Description("logs and reports progress"))
	s.Tool("ask", func(ctx *fastmcp.Context) (string, error) {
		var in NameArgs
		action, err := ctx.Elicit("Who?", &in)
		if err != nil {
			return "", err
		}
		res, err := ctx.Sample(&fastmcp.SamplingRequest{
			Messages:  []fastmcp.SamplingMessage{{Role: "user", Content: protocol.SamplingContent{fastmcp.Text("hi " + in.Name)}}},
			MaxTokens: 10,
		})
		if err != nil {
			return "", err
		}
		roots, err := ctx.ListRoots()
		if err != nil {
			return "", err
		}
		text, _ := res.Content[0].(*protocol.TextContent)
		return fmt.Sprintf("%s %s %s %d", action, in.Name, text.Text, len(roots)), nil
	}, fastmcp.Description("asks the client"))
	s.Tool("refuse", func() (string, error) {
		return "", protocol.NewError(-32042, "refused").WithData(map[string]string{"why": "because"})
	}, fastmcp.Description("fails with a JSON-RPC error"))
	s.Tool("block", func(ctx context.Context) (string, error) {
		<-ctx.Done()
		cancelled <- context.Cause(ctx)
		return "", ctx.Err()
	}, fastmcp.Description("waits to be cancelled"))
	s.Prompt("greet", func(in NameArgs) string { return "Hello " + in.Name },
		fastmcp.Description("greets"), fastmcp.CompleteArg("name", fastmcp.Choices("Ada", "Alan")))
	s.Resource("file:///a.txt", func() string { return "A" }, fastmcp.Description("a"))
	s.Resource("file:///t/{name}", func(in NameArgs) string { return "T " + in.Name }, fastmcp.Description("t"))
	return s, cancelled
}

// eras are the two ways a client can talk to a server.
var eras = []struct {
	name string
	opt  client.Option
}{
	{"legacy", client.WithProtocolVersion(fastmcptest.Legacy)},
	{"modern", client.WithProtocolVersion(fastmcptest.Modern)},
}

// EachEraPair runs fn for the four pairs of backend and frontend eras.
func EachEraPair(t *testing.T, fn func(t *testing.T, back, front client.Option, frontModern bool)) {
	for _, b := range eras {
		for _, f := range eras {
			t.Run("backend "+b.name+"/frontend "+f.name, func(t *testing.T) {
				t.Parallel()
				fn(t, b.opt, f.opt, f.name == "modern")
			})
		}
	}
}

// HasTool reports whether tools has one named name.
func HasTool(tools []*protocol.Tool, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}
