// Package fastmcp builds Model Context Protocol servers from plain Go
// functions (the client is package client).
//
// # Tools
//
// A tool is a function over an argument struct. The struct becomes the
// tool's JSON Schema (property names from json tags, descriptions and
// constraints from jsonschema tags, and the rules in validate tags, which
// the server enforces, mirrored into the schema so the model knows them);
// every call's arguments are validated and decoded before the function runs:
//
//	type AddArgs struct {
//		A int `json:"a" jsonschema:"description=first addend"`
//		B int `json:"b" jsonschema:"description=second addend" validate:"gte=0"`
//	}
//
//	func add(ctx *fastmcp.Context, in AddArgs) (int, error) {
//		ctx.Info("adding")
//		return in.A + in.B, nil
//	}
//
//	s := fastmcp.New("calc", "1.0.0")
//	s.Tool("add", add, fastmcp.Description("Add two integers"))
//	s.ServeStdio(ctx)
//
// A handler takes an optional context (*Context or context.Context) and an
// optional argument struct, and returns a result, an error, or both. The
// result R becomes the tool's result this way:
//
//   - string: one text content block;
//   - a Content value (Text, Image, Audio, Link, EmbeddedText, ...) or a
//     []Content: sent as given;
//   - *ToolResult: sent as is;
//   - any other JSON value: structuredContent, plus a text block holding its
//     JSON. A struct result publishes its schema as the tool's outputSchema;
//     a value that is not a JSON object (a number, a slice) is wrapped as
//     {"result": v}.
//
// A returned error becomes a result with isError set and the error's text,
// which the model sees; an error wrapping a *protocol.Error (such as
// protocol.ErrInvalidParams) becomes a JSON-RPC error with its code instead.
// A panic becomes an isError result saying an internal error happened, and
// is logged with its stack.
//
// # Resources, prompts, completion
//
// Resource, Prompt and Complete register the other server features the
// same way. A resource is a function returning its contents (a string,
// bytes, JSON value or ResourceContents); a URI with RFC 6570 expressions,
// such as "users://{id}/profile", registers a template whose variables bind
// to the fields of the function's argument struct, validated like tool
// arguments. A prompt is a function over an argument struct returning a
// string, messages or a PromptResult. A Completer suggests values for a
// prompt argument or template variable. See docs/resources.md and
// docs/prompts.md.
//
// # Context
//
// *Context is a context.Context, cancelled when the client cancels the
// request or goes away. It logs to the client (Debug, Info, Warning, Error),
// reports progress, and asks the client for input: Sample, Elicit,
// ElicitURL and ListRoots. Those work on every protocol revision: on
// 2026-07-28 they become multi round-trip requests, where the handler runs
// again with the client's answers, so a handler must be safe to re-run up to
// its input requests.
//
// # Layers
//
// A Server is mounted on a lowlevel.Server (see Server.Lowlevel): each
// registration installs handlers in its method table, which advanced users
// can extend or wrap with middleware.
//
// # Serving
//
// HTTP is served two ways: by Run, on the transport the settings choose
// (stdio by default, Streamable HTTP with the legacy SSE endpoints when an
// address or a Listener is given), around an optional Lifespan whose
// value handlers read with State, shutting down gracefully on
// SIGINT/SIGTERM; and by the Server as an http.Handler, to mount in one's
// own mux (mux.Handle("/mcp", s)) and stop with Shutdown. ServeStdio and
// Serve serve one client over stdio or any transport.Conn. See docs/serving.md and docs/http.md.
//
// # Client and proxy
//
// The client is package client (github.com/fastmcp-go/fastmcp/client).
// Package proxy's New serves, as a Server, whatever the server behind a
// *client.Client offers; package fastmcp imports neither, so a server
// that builds no proxy links none of them. See docs/client.md and
// docs/proxy.md.
package fastmcp
