// Command client is fastmcp's "everything client" for the official MCP
// conformance suite (@modelcontextprotocol/conformance). The suite starts
// it once per client scenario as
//
//	client <server-url>
//
// with the scenario in MCP_CONFORMANCE_SCENARIO, the protocol revision to
// speak in MCP_CONFORMANCE_PROTOCOL_VERSION (2025-11-25 and earlier: the
// legacy session with the initialize handshake; 2026-07-28: the stateless
// lifecycle) and, for some scenarios, data in MCP_CONFORMANCE_CONTEXT
// (JSON). It does what the scenario expects of a client, using only the
// public fastmcp client API, and exits 0 when that worked. Diagnostics go
// to standard error.
//
// The authorization scenarios (auth/*) connect with client.OAuth; the
// authorization page is "opened" by fetching it with an HTTP client, which
// follows the mock authorization server's immediate redirect back to the
// client's loopback listener, as a browser would (see auth.go).
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/client"
)

// scenario runs one conformance scenario against the mock server at url.
type scenario func(ctx context.Context, r *run) error

var scenarios = map[string]scenario{
	"initialize":                          initialize,
	"tools_call":                          toolsCall,
	"tools-call":                          toolsCall,
	"elicitation-sep1034-client-defaults": elicitationDefaults,
	"sse-retry":                           sseRetry,
	"json-schema-2020-12-preservation":    schemaPreservation,
	"json-schema-ref-no-deref":            listOnly,
	"request-metadata":                    listOnly,
	"sep-2322-client-request-state":       requestState,
	"http-standard-headers":               standardHeaders,
	"http-custom-headers":                 customHeaders,
	"http-invalid-tool-headers":           invalidToolHeaders,
}

func init() {
	for _, name := range authScenarios {
		scenarios[name] = authorized
	}
}

// run is one invocation: where to connect, how, and the scenario's data.
type run struct {
	name    string // the scenario
	url     string
	version string // MCP_CONFORMANCE_PROTOCOL_VERSION; "" lets the client choose
	context jsontext.Value
	logger  *slog.Logger
}

// connect opens a client to the mock server speaking the run's revision.
func (r *run) connect(ctx context.Context, opts ...client.Option) (*client.Client, error) {
	base := []client.Option{
		client.WithInfo("fastmcp-conformance-client", "1.0.0"),
		client.WithLogger(r.logger),
	}
	if r.version != "" {
		base = append(base, client.WithProtocolVersion(r.version))
	}
	c, err := client.ConnectHTTP(ctx, r.url, append(base, opts...)...)
	if err != nil {
		return nil, err
	}
	r.logger.Info("connected", "protocol", c.ProtocolVersion(), "era", c.Era(), "server", c.ServerInfo().Name)
	return c, nil
}

func main() {
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	name := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	if len(os.Args) != 2 || name == "" {
		fmt.Fprintf(os.Stderr, "usage: MCP_CONFORMANCE_SCENARIO=<scenario> %s <server-url>\nsupported scenarios: %s\n", os.Args[0], supported())
		os.Exit(2)
	}
	fn, ok := scenarios[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "client: scenario %q is not supported by the fastmcp everything-client\nsupported scenarios: %s\n", name, supported())
		os.Exit(1)
	}
	r := &run{
		name:    name,
		url:     os.Args[1],
		version: os.Getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"),
		logger:  logger.With("scenario", name),
	}
	if s := os.Getenv("MCP_CONFORMANCE_CONTEXT"); s != "" {
		r.context = jsontext.Value(s)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := fn(ctx, r); err != nil {
		fmt.Fprintf(os.Stderr, "client: scenario %s: %v\n", name, err)
		os.Exit(1)
	}
}

func supported() string {
	names := make([]string, 0, len(scenarios))
	for n := range scenarios {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// listTools lists every tool (the client keeps the definitions for
// CallTool) and logs their names.
func listTools(ctx context.Context, r *run, c *client.Client) ([]*client.Tool, error) {
	var tools []*client.Tool
	for t, err := range c.Tools(ctx) {
		if err != nil {
			return nil, fmt.Errorf("listing tools: %w", err)
		}
		tools = append(tools, t)
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	r.logger.Info("tools", "names", names)
	return tools, nil
}

// callTool calls a tool and logs its result; a tool error is an error.
func callTool(ctx context.Context, r *run, c *client.Client, name string, args any) (*client.ToolResult, error) {
	res, err := c.CallTool(ctx, name, args)
	if err != nil {
		return nil, fmt.Errorf("calling %s: %w", name, err)
	}
	text, _ := json.Marshal(res.Content)
	r.logger.Info("tool result", "tool", name, "isError", res.IsError, "content", string(text))
	if res.IsError {
		return res, fmt.Errorf("tool %s failed: %s", name, text)
	}
	return res, nil
}

// session connects with opts, lists the tools (the client keeps their
// definitions for CallTool), runs fn and closes the client.
func (r *run) session(ctx context.Context, fn func(c *client.Client, tools []*client.Tool) error, opts ...client.Option) error {
	c, err := r.connect(ctx, opts...)
	if err != nil {
		return err
	}
	defer c.Close()
	tools, err := listTools(ctx, r, c)
	if err != nil {
		return err
	}
	return fn(c, tools)
}

// callEach calls each named tool without arguments, stopping at the first
// failure.
func callEach(ctx context.Context, r *run, c *client.Client, names ...string) error {
	for _, name := range names {
		if _, err := callTool(ctx, r, c, name, nil); err != nil {
			return err
		}
	}
	return nil
}

// initialize connects (the handshake on legacy revisions) and lists tools.
func initialize(ctx context.Context, r *run) error {
	return r.session(ctx, func(*client.Client, []*client.Tool) error { return nil })
}

// listOnly connects and lists tools, logging their input schemas:
// request-metadata (the connection survives the server refusing its first
// request's version) and json-schema-ref-no-deref (listing must not fetch
// remote $refs).
func listOnly(ctx context.Context, r *run) error {
	return r.session(ctx, func(_ *client.Client, tools []*client.Tool) error {
		for _, t := range tools {
			r.logger.Info("input schema", "tool", t.Name, "schema", string(t.InputSchema))
		}
		return nil
	})
}

// toolsCall calls add_numbers (or the first tool) with a=2, b=3.
func toolsCall(ctx context.Context, r *run) error {
	return r.session(ctx, func(c *client.Client, tools []*client.Tool) error {
		if len(tools) == 0 {
			return errors.New("the server lists no tools")
		}
		name := tools[0].Name
		if slices.ContainsFunc(tools, func(t *client.Tool) bool { return t.Name == "add_numbers" }) {
			name = "add_numbers"
		}
		_, err := callTool(ctx, r, c, name, map[string]int{"a": 2, "b": 3})
		return err
	})
}

// elicitationDefaults accepts the server's form without filling anything
// in: the client fills every field from the form's defaults (SEP-1034).
func elicitationDefaults(ctx context.Context, r *run) error {
	accept := func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
		r.logger.Info("elicitation", "message", req.Message, "schema", string(req.RequestedSchema))
		return &client.ElicitResult{Action: client.ElicitAccept}, nil
	}
	return r.session(ctx, func(c *client.Client, _ []*client.Tool) error {
		return callEach(ctx, r, c, "test_client_elicitation_defaults")
	}, client.WithElicitation(accept))
}

// sseRetry calls test_reconnection, whose answer stream the server closes
// before the result: the transport resumes it after the SSE retry delay.
func sseRetry(ctx context.Context, r *run) error {
	return r.session(ctx, func(c *client.Client, _ []*client.Tool) error {
		return callEach(ctx, r, c, "test_reconnection")
	})
}

// schemaPreservation sends the focal tool's input schema, exactly as the
// client holds it, back through json_schema_echo.
func schemaPreservation(ctx context.Context, r *run) error {
	return r.session(ctx, func(c *client.Client, tools []*client.Tool) error {
		i := slices.IndexFunc(tools, func(t *client.Tool) bool { return t.Name == "json_schema_2020_12_tool" })
		if i < 0 {
			return errors.New("the server does not list json_schema_2020_12_tool")
		}
		args := jsontext.Value(`{"schema":` + string(tools[i].InputSchema) + `}`)
		_, err := callTool(ctx, r, c, "json_schema_echo", args)
		return err
	})
}

// requestState exercises multi round-trip requests (SEP-2322): the client
// answers input requests, echoes requestState, and keeps other calls made
// meanwhile free of both.
func requestState(ctx context.Context, r *run) error {
	var cl *client.Client // set before any call, so before any elicitation
	var once sync.Once
	var unrelated error
	confirm := func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
		r.logger.Info("elicitation", "message", req.Message)
		// A call made while another waits for its retry must carry
		// neither the other's answers nor its state.
		once.Do(func() { _, unrelated = callTool(ctx, r, cl, "test_mrtr_unrelated", nil) })
		return client.AcceptElicitation(map[string]bool{"confirmed": true})
	}
	return r.session(ctx, func(c *client.Client, _ []*client.Tool) error {
		cl = c
		if err := callEach(ctx, r, c, "test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_no_result_type"); err != nil {
			return err
		}
		return unrelated
	}, client.WithElicitation(confirm))
}

// standardHeaders sends one request of every kind that has an Mcp-Method
// (and Mcp-Name) header.
func standardHeaders(ctx context.Context, r *run) error {
	return r.session(ctx, func(c *client.Client, tools []*client.Tool) error {
		for _, t := range tools {
			if err := callEach(ctx, r, c, t.Name); err != nil {
				return err
			}
		}
		for res, err := range c.Resources(ctx) {
			if err != nil {
				return fmt.Errorf("listing resources: %w", err)
			}
			if _, err := c.ReadResource(ctx, res.URI); err != nil {
				return fmt.Errorf("reading %s: %w", res.URI, err)
			}
			r.logger.Info("read resource", "uri", res.URI)
		}
		for p, err := range c.Prompts(ctx) {
			if err != nil {
				return fmt.Errorf("listing prompts: %w", err)
			}
			if _, err := c.GetPrompt(ctx, p.Name, nil); err != nil {
				return fmt.Errorf("getting prompt %s: %w", p.Name, err)
			}
			r.logger.Info("got prompt", "name", p.Name)
		}
		return nil
	})
}

// customHeaders makes the tool calls the scenario's context lists, with
// their arguments exactly as given: the client mirrors the x-mcp-header
// arguments into Mcp-Param-* headers.
func customHeaders(ctx context.Context, r *run) error {
	var data struct {
		ToolCalls []struct {
			Name      string         `json:"name"`
			Arguments jsontext.Value `json:"arguments"`
		} `json:"toolCalls"`
	}
	if err := json.Unmarshal(r.context, &data); err != nil {
		return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
	}
	if len(data.ToolCalls) == 0 {
		return errors.New("MCP_CONFORMANCE_CONTEXT lists no toolCalls")
	}
	return r.session(ctx, func(c *client.Client, _ []*client.Tool) error {
		for _, call := range data.ToolCalls {
			var args any
			if len(call.Arguments) > 0 {
				args = call.Arguments
			}
			if _, err := callTool(ctx, r, c, call.Name, args); err != nil {
				return err
			}
		}
		return nil
	})
}

// invalidToolHeaders lists tools (the client drops, with a warning, those
// whose x-mcp-header annotations are invalid) and calls valid_tool.
func invalidToolHeaders(ctx context.Context, r *run) error {
	return r.session(ctx, func(c *client.Client, tools []*client.Tool) error {
		if !slices.ContainsFunc(tools, func(t *client.Tool) bool { return t.Name == "valid_tool" }) {
			return errors.New("valid_tool was not kept")
		}
		// The client refuses, without sending anything, to call a dropped tool.
		if _, err := c.CallTool(ctx, "invalid_empty_header", map[string]string{"region": "us-west1"}); errors.Is(err, client.ErrInvalidToolHeaders) {
			r.logger.Info("dropped tool refused", "error", err)
		} else {
			r.logger.Warn("calling a dropped tool was not refused", "error", err)
		}
		_, err := callTool(ctx, r, c, "valid_tool", map[string]string{"region": "us-west1"})
		return err
	})
}
