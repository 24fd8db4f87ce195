package otel

import "go.opentelemetry.io/otel/attribute"

// The MCP and gen-AI keys of the OpenTelemetry semantic conventions for the
// Model Context Protocol (status: development), defined here because the
// semconv package this module pins (go.opentelemetry.io/otel/semconv/v1.43.0)
// no longer carries them: they moved to the gen-AI conventions repository.
// The general keys (error.type, jsonrpc.request.id, network.transport, ...)
// come from semconv. Definitions:
// https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md
const (
	// MethodNameKey is the JSON-RPC method of the request or notification.
	MethodNameKey = attribute.Key("mcp.method.name")
	// ProtocolVersionKey is the MCP revision the message was exchanged under.
	ProtocolVersionKey = attribute.Key("mcp.protocol.version")
	// SessionIDKey is the MCP session id (Mcp-Session-Id over HTTP).
	SessionIDKey = attribute.Key("mcp.session.id")
	// ResourceURIKey is the resource URI of resources/read,
	// resources/subscribe, resources/unsubscribe and
	// notifications/resources/updated.
	ResourceURIKey = attribute.Key("mcp.resource.uri")
	// ToolNameKey is the tool of a tools/call.
	ToolNameKey = attribute.Key("gen_ai.tool.name")
	// PromptNameKey is the prompt of a prompts/get.
	PromptNameKey = attribute.Key("gen_ai.prompt.name")
	// OperationNameKey is the gen-AI operation: OperationExecuteTool for a
	// tools/call, absent otherwise.
	OperationNameKey = attribute.Key("gen_ai.operation.name")
	// ToolCallArgumentsKey holds a tool call's arguments (opt-in:
	// WithToolArguments); they may be sensitive.
	ToolCallArgumentsKey = attribute.Key("gen_ai.tool.call.arguments")
	// ToolCallResultKey holds a tool call's result (opt-in:
	// WithToolResults); it may be sensitive.
	ToolCallResultKey = attribute.Key("gen_ai.tool.call.result")
)

const (
	// OperationExecuteTool is the gen_ai.operation.name of a tools/call.
	OperationExecuteTool = "execute_tool"
	// ErrorTypeToolError is the error.type of a tools/call whose result has
	// isError set.
	ErrorTypeToolError = "tool_error"
)

// The metrics of the MCP conventions: histograms in seconds.
const (
	ServerOperationDuration = "mcp.server.operation.duration"
	ClientOperationDuration = "mcp.client.operation.duration"
	ServerSessionDuration   = "mcp.server.session.duration"
	ClientSessionDuration   = "mcp.client.session.duration"
)

// durationBuckets are the explicit bucket boundaries (seconds) the
// conventions advise for every MCP duration histogram.
var durationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}
