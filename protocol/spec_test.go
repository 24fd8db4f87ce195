package protocol_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/spectest"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// specKind says how a specCase's value is checked against the schema.
type specKind int

const (
	object       specKind = iota // the value is the definition
	request                      // the value is the params of a request with the case's method
	notification                 // the value is the params of a notification
	result                       // the value is a result
)

// specCase is a value that must validate against definition def of every
// revision from "from" to "to" (inclusive; "" means the latest).
type specCase struct {
	name     string
	def      string
	from, to string
	kind     specKind
	method   string
	value    any
}

var (
	all       = [2]string{protocol.Version20241105, protocol.Version20260728}
	modernKey = protocol.Meta{
		protocol.MetaProtocolVersion:    protocol.Version20260728,
		protocol.MetaClientCapabilities: map[string]any{},
		protocol.MetaClientInfo:         map[string]any{"name": "ExampleClient", "version": "1.0.0"},
	}
	serverMeta = protocol.Meta{protocol.MetaServerInfo: map[string]any{"name": "ExampleServer", "version": "1.0.0"}}
	ttl        = new(int64(300000))
	rawObj     = func(s string) json.RawMessage { return json.RawMessage(s) }
)

// Content blocks and other objects used in several cases.
var (
	annotations = &protocol.Annotations{Audience: []protocol.Role{protocol.RoleUser, protocol.RoleAssistant}, Priority: new(0.8), LastModified: "2025-01-12T15:00:58Z"}
	textBlock   = &protocol.TextContent{Text: "Current weather in New York: 72°F", Annotations: annotations, Meta: protocol.Meta{"com.example/k": 1}}
	imageBlock  = &protocol.ImageContent{Data: []byte("\x89PNG\r\n\x1a\n"), MIMEType: "image/png", Annotations: &protocol.Annotations{Priority: new(0.5)}}
	audioBlock  = &protocol.AudioContent{Data: []byte("RIFF"), MIMEType: "audio/wav"}
	linkBlock   = &protocol.ResourceLink{URI: "file:///project/src/main.rs", Name: "main.rs", Title: "Main file", Description: "Primary entry point",
		MIMEType: "text/x-rust", Size: new(int64(1024)), Annotations: annotations, Icons: []protocol.Icon{{Src: "https://example.com/rs.png"}}}
	textResource = &protocol.EmbeddedResource{Resource: protocol.ResourceContents{URI: "file:///project/README.md", MIMEType: "text/markdown", Text: "# Project"},
		Annotations: annotations}
	blobResource = &protocol.EmbeddedResource{Resource: protocol.ResourceContents{URI: "file:///project/logo.png", MIMEType: "image/png", Blob: []byte{1, 2, 3}}}
	toolUse      = &protocol.ToolUseContent{ID: "call_abc123", Name: "get_weather", Input: rawObj(`{"city":"Paris"}`), Meta: protocol.Meta{"k": "v"}}
	toolResult   = &protocol.ToolResultContent{ToolUseID: "call_abc123", Content: []protocol.Content{&protocol.TextContent{Text: "18°C"}},
		StructuredContent: rawObj(`{"temperature":18}`), IsError: true}
	icon     = protocol.Icon{Src: "https://example.com/icon.png", MIMEType: "image/png", Sizes: []string{"48x48", "96x96"}, Theme: protocol.IconThemeLight}
	fullTool = &protocol.Tool{
		Name: "get_weather", Title: "Weather Information Provider", Description: "Get current weather information for a location",
		InputSchema:  rawObj(`{"type":"object","properties":{"location":{"type":"string","description":"City name or zip code"}},"required":["location"]}`),
		OutputSchema: rawObj(`{"type":"object","properties":{"temperature":{"type":"number"}},"required":["temperature"]}`),
		Annotations:  &protocol.ToolAnnotations{Title: "Weather", ReadOnlyHint: new(true), DestructiveHint: new(false), IdempotentHint: new(true), OpenWorldHint: new(true)},
		Icons:        []protocol.Icon{icon},
		Execution:    &protocol.ToolExecution{TaskSupport: protocol.TaskSupportOptional},
		Meta:         protocol.Meta{"com.example/version": "2"},
	}
	clientCaps = protocol.ClientCapabilities{
		Experimental: map[string]json.RawMessage{"com.example/feature": rawObj(`{"on":true}`)},
		Roots:        &protocol.RootsCapability{ListChanged: true},
		Sampling:     &protocol.SamplingCapability{Context: &protocol.Capability{}, Tools: &protocol.Capability{}},
		Elicitation:  &protocol.ElicitationCapability{Form: &protocol.Capability{}, URL: &protocol.Capability{}},
		Tasks: &protocol.TasksCapability{List: &protocol.Capability{}, Cancel: &protocol.Capability{},
			Requests: map[string]map[string]protocol.Capability{"sampling": {"createMessage": {}}, "elicitation": {"create": {}}}},
		Extensions: map[string]json.RawMessage{"io.modelcontextprotocol/ui": rawObj(`{"mimeTypes":["text/html;profile=mcp-app"]}`)},
	}
	serverCaps = protocol.ServerCapabilities{
		Experimental: map[string]json.RawMessage{"com.example/feature": rawObj(`{}`)},
		Logging:      &protocol.Capability{},
		Completions:  &protocol.Capability{},
		Prompts:      &protocol.PromptsCapability{ListChanged: true},
		Resources:    &protocol.ResourcesCapability{Subscribe: true, ListChanged: true},
		Tools:        &protocol.ToolsCapability{ListChanged: true},
		Tasks: &protocol.TasksCapability{List: &protocol.Capability{}, Cancel: &protocol.Capability{},
			Requests: map[string]map[string]protocol.Capability{"tools": {"call": {}}}},
		Extensions: map[string]json.RawMessage{"io.modelcontextprotocol/tasks": rawObj(`{}`)},
	}
	implementation = protocol.Implementation{Name: "ExampleServer", Title: "Example Server", Version: "1.0.0", Description: "An example",
		WebsiteURL: "https://example.com", Icons: []protocol.Icon{icon}}
	task = protocol.Task{TaskID: "786512e2-9e0d-44bd-8f29-789f320fe840", Status: protocol.TaskWorking, StatusMessage: "in progress",
		CreatedAt: "2025-11-25T10:30:00Z", LastUpdatedAt: "2025-11-25T10:40:00Z", TTL: new(int64(60000)), PollInterval: new(int64(5000))}
	formSchema = rawObj(`{"type":"object","properties":{"name":{"type":"string","description":"Your full name"},` +
		`"email":{"type":"string","format":"email"},"age":{"type":"number","minimum":18}},"required":["name","email"]}`)
	samplingParams = &protocol.CreateMessageParams{
		Meta:             modernKey,
		Messages:         []protocol.SamplingMessage{{Role: protocol.RoleUser, Content: protocol.SamplingContent{&protocol.TextContent{Text: "What is the capital of France?"}}}},
		ModelPreferences: &protocol.ModelPreferences{Hints: []protocol.ModelHint{{Name: "claude-3-sonnet"}}, IntelligencePriority: new(0.8), SpeedPriority: new(0.5), CostPriority: new(0.3)},
		SystemPrompt:     "You are a helpful assistant.", IncludeContext: protocol.IncludeContextNone, Temperature: new(0.7), MaxTokens: 100,
		StopSequences: []string{"\n\nHuman:"}, Metadata: rawObj(`{"provider":"x"}`),
	}
)

func specCases() []specCase {
	from := func(v string) [2]string { return [2]string{v, protocol.Version20260728} }
	upTo := func(v string) [2]string { return [2]string{protocol.Version20241105, v} }
	only := func(v string) [2]string { return [2]string{v, v} }
	c := func(name, def string, r [2]string, kind specKind, method string, v any) specCase {
		return specCase{name: name, def: def, from: r[0], to: r[1], kind: kind, method: method, value: v}
	}
	return []specCase{
		// Content and objects.
		c("TextContent", "TextContent", all, object, "", textBlock),
		c("ImageContent", "ImageContent", all, object, "", imageBlock),
		c("AudioContent", "AudioContent", from(protocol.Version20250326), object, "", audioBlock),
		c("ResourceLink", "ResourceLink", from(protocol.Version20250618), object, "", linkBlock),
		c("EmbeddedResource text", "EmbeddedResource", all, object, "", textResource),
		c("EmbeddedResource blob", "EmbeddedResource", all, object, "", blobResource),
		c("TextResourceContents", "TextResourceContents", all, object, "", protocol.ResourceContents{URI: "file:///a.txt", Text: ""}),
		c("BlobResourceContents", "BlobResourceContents", all, object, "", protocol.ResourceContents{URI: "file:///a.bin", MIMEType: "application/octet-stream", Blob: []byte{}}),
		c("ToolUseContent", "ToolUseContent", from(protocol.Version20251125), object, "", toolUse),
		c("ToolResultContent", "ToolResultContent", from(protocol.Version20251125), object, "", toolResult),
		c("Annotations", "Annotations", from(protocol.Version20250326), object, "", annotations),
		c("Icon", "Icon", from(protocol.Version20251125), object, "", icon),
		c("Implementation", "Implementation", all, object, "", implementation),
		c("ClientCapabilities", "ClientCapabilities", all, object, "", clientCaps),
		c("ServerCapabilities", "ServerCapabilities", all, object, "", serverCaps),
		c("Tool", "Tool", all, object, "", fullTool),
		c("Tool minimal", "Tool", all, object, "", &protocol.Tool{Name: "ping"}),
		c("ToolAnnotations", "ToolAnnotations", from(protocol.Version20250326), object, "", fullTool.Annotations),
		c("Resource", "Resource", all, object, "", &protocol.Resource{URI: "file:///project/src/main.rs", Name: "main.rs", Title: "Main",
			Description: "d", MIMEType: "text/x-rust", Annotations: annotations, Size: new(int64(2048)), Icons: []protocol.Icon{icon}, Meta: protocol.Meta{"a": 1}}),
		c("ResourceTemplate", "ResourceTemplate", all, object, "", &protocol.ResourceTemplate{URITemplate: "file:///{path}", Name: "Project Files",
			Title: "📁 Project Files", Description: "Access files", MIMEType: "application/octet-stream", Annotations: annotations, Icons: []protocol.Icon{icon}}),
		c("Prompt", "Prompt", all, object, "", &protocol.Prompt{Name: "code_review", Title: "Request Code Review", Description: "d",
			Arguments: []protocol.PromptArgument{{Name: "code", Title: "Code", Description: "The code", Required: true}}, Icons: []protocol.Icon{icon}}),
		c("PromptMessage", "PromptMessage", all, object, "", protocol.PromptMessage{Role: protocol.RoleUser, Content: textResource}),
		c("PromptMessage link", "PromptMessage", from(protocol.Version20250618), object, "", protocol.PromptMessage{Role: protocol.RoleAssistant, Content: linkBlock}),
		c("SamplingMessage", "SamplingMessage", all, object, "", protocol.SamplingMessage{Role: protocol.RoleUser, Content: protocol.SamplingContent{imageBlock}}),
		c("SamplingMessage many", "SamplingMessage", from(protocol.Version20251125), object, "", protocol.SamplingMessage{Role: protocol.RoleAssistant,
			Content: protocol.SamplingContent{toolUse, &protocol.TextContent{Text: "x"}}, Meta: protocol.Meta{"k": 1}}),
		c("ModelPreferences", "ModelPreferences", all, object, "", samplingParams.ModelPreferences),
		c("Root", "Root", all, object, "", protocol.Root{URI: "file:///home/user/projects/myproject", Name: "My Project", Meta: protocol.Meta{"k": 1}}),
		c("Task", "Task", only(protocol.Version20251125), object, "", task),
		c("Task no ttl", "Task", only(protocol.Version20251125), object, "", protocol.Task{TaskID: "t", Status: protocol.TaskCompleted, CreatedAt: "c", LastUpdatedAt: "u"}),
		c("RelatedTaskMetadata", "RelatedTaskMetadata", only(protocol.Version20251125), object, "", protocol.RelatedTaskMetadata{TaskID: "t"}),
		c("SubscriptionFilter", "SubscriptionFilter", only(protocol.Version20260728), object, "", protocol.SubscriptionFilter{ToolsListChanged: true,
			PromptsListChanged: true, ResourcesListChanged: true, ResourceSubscriptions: []string{"file:///project/config.json"}}),
		c("RequestMeta", "RequestMetaObject", only(protocol.Version20260728), object, "", protocol.RequestMeta{ProgressToken: protocol.Int64ID(1),
			ProtocolVersion: protocol.Version20260728, ClientInfo: &implementation, ClientCapabilities: &clientCaps, LogLevel: protocol.LevelNotice,
			Other: map[string]json.RawMessage{protocol.MetaTraceParent: rawObj(`"00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"`)}}),

		// Lifecycle.
		c("initialize", "InitializeRequest", upTo(protocol.Version20251125), request, protocol.MethodInitialize, &protocol.InitializeParams{
			ProtocolVersion: protocol.Version20251125, Capabilities: clientCaps, ClientInfo: implementation}),
		c("InitializeResult", "InitializeResult", upTo(protocol.Version20251125), result, "", &protocol.InitializeResult{ProtocolVersion: protocol.Version20241105,
			Capabilities: serverCaps, ServerInfo: implementation, Instructions: "Use get_weather."}),
		c("initialized", "InitializedNotification", upTo(protocol.Version20251125), notification, protocol.NotificationInitialized, nil),
		c("ping", "PingRequest", upTo(protocol.Version20251125), request, protocol.MethodPing, &protocol.RequestParams{}),
		c("EmptyResult", "EmptyResult", all, result, "", &protocol.EmptyResult{ResultType: protocol.ResultTypeComplete, Meta: serverMeta}),
		c("server/discover", "DiscoverRequest", only(protocol.Version20260728), request, protocol.MethodServerDiscover, &protocol.RequestParams{Meta: modernKey}),
		c("DiscoverResult", "DiscoverResult", only(protocol.Version20260728), result, "", &protocol.DiscoverResult{Meta: serverMeta, ResultType: protocol.ResultTypeComplete,
			TTLMs: new(int64(3600000)), CacheScope: protocol.CacheScopePublic, SupportedVersions: protocol.SupportedVersions(), Capabilities: serverCaps,
			Instructions: "This server provides weather and resource utilities."}),

		// Tools.
		c("tools/list", "ListToolsRequest", all, request, protocol.MethodToolsList, &protocol.ListParams{Meta: modernKey, Cursor: "c1"}),
		c("ListToolsResult", "ListToolsResult", all, result, "", &protocol.ListToolsResult{ResultType: protocol.ResultTypeComplete, TTLMs: ttl,
			CacheScope: protocol.CacheScopePublic, Tools: []*protocol.Tool{fullTool, {Name: "ping"}}, NextCursor: "next"}),
		c("tools/call", "CallToolRequest", all, request, protocol.MethodToolsCall, &protocol.CallToolParams{Meta: modernKey, Name: "get_weather",
			Arguments: rawObj(`{"location":"New York"}`)}),
		c("tools/call task", "CallToolRequest", only(protocol.Version20251125), request, protocol.MethodToolsCall, &protocol.CallToolParams{Name: "get_weather",
			Task: &protocol.TaskMetadata{TTL: new(int64(60000))}}),
		c("tools/call retry", "CallToolRequest", only(protocol.Version20260728), request, protocol.MethodToolsCall, &protocol.CallToolParams{Meta: modernKey,
			Name: "get_weather", InputResponses: protocol.InputResponses{"github_login": rawObj(`{"action":"accept","content":{"name":"octocat"}}`)},
			RequestState: "eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0"}),
		c("CallToolResult", "CallToolResult", all, result, "", &protocol.CallToolResult{ResultType: protocol.ResultTypeComplete,
			Content: []protocol.Content{textBlock, imageBlock, textResource, blobResource}, StructuredContent: rawObj(`{"temperature":22.5}`), Meta: serverMeta}),
		c("CallToolResult newer content", "CallToolResult", from(protocol.Version20250618), result, "", &protocol.CallToolResult{ResultType: protocol.ResultTypeComplete,
			Content: []protocol.Content{audioBlock, linkBlock}, IsError: true}),
		c("CallToolResult empty", "CallToolResult", all, result, "", &protocol.CallToolResult{ResultType: protocol.ResultTypeComplete}),
		c("CallToolResult array structured", "CallToolResult", only(protocol.Version20260728), result, "", &protocol.CallToolResult{ResultType: protocol.ResultTypeComplete,
			StructuredContent: rawObj(`[1,2]`)}),

		// Resources.
		c("resources/list", "ListResourcesRequest", all, request, protocol.MethodResourcesList, &protocol.ListParams{Meta: modernKey}),
		c("ListResourcesResult", "ListResourcesResult", all, result, "", &protocol.ListResourcesResult{ResultType: protocol.ResultTypeComplete, TTLMs: ttl,
			CacheScope: protocol.CacheScopePrivate, Resources: []*protocol.Resource{{URI: "file:///a", Name: "a"}}, NextCursor: "n"}),
		c("resources/templates/list", "ListResourceTemplatesRequest", all, request, protocol.MethodResourcesTemplatesList, &protocol.ListParams{Meta: modernKey}),
		c("ListResourceTemplatesResult", "ListResourceTemplatesResult", all, result, "", &protocol.ListResourceTemplatesResult{ResultType: protocol.ResultTypeComplete,
			TTLMs: ttl, CacheScope: protocol.CacheScopePublic, ResourceTemplates: []*protocol.ResourceTemplate{{URITemplate: "file:///{path}", Name: "files"}}}),
		c("resources/read", "ReadResourceRequest", all, request, protocol.MethodResourcesRead, &protocol.ReadResourceParams{Meta: modernKey, URI: "file:///a"}),
		c("resources/read retry", "ReadResourceRequest", only(protocol.Version20260728), request, protocol.MethodResourcesRead, &protocol.ReadResourceParams{
			Meta: modernKey, URI: "file:///a", RequestState: "s", InputResponses: protocol.InputResponses{"r": rawObj(`{"roots":[]}`)}}),
		c("ReadResourceResult", "ReadResourceResult", all, result, "", &protocol.ReadResourceResult{ResultType: protocol.ResultTypeComplete, TTLMs: new(int64(0)),
			CacheScope: protocol.CacheScopePublic, Contents: []protocol.ResourceContents{textResource.Resource, blobResource.Resource, {URI: "file:///e"}}}),
		c("resources/subscribe", "SubscribeRequest", upTo(protocol.Version20251125), request, protocol.MethodResourcesSubscribe, &protocol.SubscribeParams{URI: "file:///a"}),
		c("resources/unsubscribe", "UnsubscribeRequest", upTo(protocol.Version20251125), request, protocol.MethodResourcesUnsubscribe, &protocol.UnsubscribeParams{URI: "file:///a"}),
		c("resources/updated", "ResourceUpdatedNotification", all, notification, protocol.NotificationResourcesUpdated, &protocol.ResourceUpdatedParams{URI: "file:///a",
			Meta: protocol.Meta{protocol.MetaSubscriptionID: 1}}),
		c("resources/list_changed", "ResourceListChangedNotification", all, notification, protocol.NotificationResourcesListChanged, &protocol.NotificationParams{}),

		// Subscriptions (2026-07-28).
		c("subscriptions/listen", "SubscriptionsListenRequest", only(protocol.Version20260728), request, protocol.MethodSubscriptionsListen,
			&protocol.SubscriptionsListenParams{Meta: modernKey, Notifications: protocol.SubscriptionFilter{ToolsListChanged: true, ResourceSubscriptions: []string{"file:///a"}}}),
		c("SubscriptionsListenResult", "SubscriptionsListenResult", only(protocol.Version20260728), result, "", &protocol.SubscriptionsListenResult{
			ResultType: protocol.ResultTypeComplete, Meta: protocol.Meta{protocol.MetaSubscriptionID: 1}}),
		c("subscriptions/acknowledged", "SubscriptionsAcknowledgedNotification", only(protocol.Version20260728), notification,
			protocol.NotificationSubscriptionsAcknowledged, &protocol.SubscriptionsAcknowledgedParams{Meta: protocol.Meta{protocol.MetaSubscriptionID: "s1"},
				Notifications: protocol.SubscriptionFilter{ToolsListChanged: true}}),

		// Prompts.
		c("prompts/list", "ListPromptsRequest", all, request, protocol.MethodPromptsList, &protocol.ListParams{Meta: modernKey}),
		c("ListPromptsResult", "ListPromptsResult", all, result, "", &protocol.ListPromptsResult{ResultType: protocol.ResultTypeComplete, TTLMs: ttl,
			CacheScope: protocol.CacheScopePublic, Prompts: []*protocol.Prompt{{Name: "code_review"}}}),
		c("prompts/get", "GetPromptRequest", all, request, protocol.MethodPromptsGet, &protocol.GetPromptParams{Meta: modernKey, Name: "code_review",
			Arguments: map[string]string{"code": "def hello():\n    print('world')"}}),
		c("GetPromptResult", "GetPromptResult", all, result, "", &protocol.GetPromptResult{ResultType: protocol.ResultTypeComplete, Description: "Code review",
			Messages: []protocol.PromptMessage{{Role: protocol.RoleUser, Content: textBlock}, {Role: protocol.RoleAssistant, Content: imageBlock}}}),
		c("prompts/list_changed", "PromptListChangedNotification", all, notification, protocol.NotificationPromptsListChanged, nil),
		c("tools/list_changed", "ToolListChangedNotification", all, notification, protocol.NotificationToolsListChanged, &protocol.NotificationParams{
			Meta: protocol.Meta{protocol.MetaSubscriptionID: 3}}),

		// Completion.
		c("completion/complete prompt", "CompleteRequest", all, request, protocol.MethodCompletionComplete, &protocol.CompleteParams{Meta: modernKey,
			Ref: protocol.CompleteReference{Type: protocol.RefPrompt, Name: "code_review"}, Argument: protocol.CompleteArgument{Name: "language", Value: "py"}}),
		c("completion/complete resource", "CompleteRequest", all, request, protocol.MethodCompletionComplete, &protocol.CompleteParams{Meta: modernKey,
			Ref: protocol.CompleteReference{Type: protocol.RefResource, URI: "file:///{path}"}, Argument: protocol.CompleteArgument{Name: "path", Value: "src"}}),
		c("completion/complete context", "CompleteRequest", from(protocol.Version20250618), request, protocol.MethodCompletionComplete, &protocol.CompleteParams{
			Meta: modernKey, Ref: protocol.CompleteReference{Type: protocol.RefPrompt, Name: "code_review", Title: "Code Review"},
			Argument: protocol.CompleteArgument{Name: "framework", Value: "fla"}, Context: &protocol.CompleteContext{Arguments: map[string]string{"language": "python"}}}),
		c("CompleteResult", "CompleteResult", all, result, "", &protocol.CompleteResult{ResultType: protocol.ResultTypeComplete,
			Completion: protocol.Completion{Values: []string{"python", "pytorch"}, Total: new(10), HasMore: true}}),

		// Logging.
		c("logging/setLevel", "SetLevelRequest", upTo(protocol.Version20251125), request, protocol.MethodLoggingSetLevel, &protocol.SetLevelParams{Level: protocol.LevelWarning}),
		c("notifications/message", "LoggingMessageNotification", all, notification, protocol.NotificationMessage, &protocol.LoggingMessageParams{
			Level: protocol.LevelError, Logger: "database", Data: rawObj(`{"error":"Connection failed"}`)}),

		// Progress and cancellation.
		c("notifications/progress", "ProgressNotification", all, notification, protocol.NotificationProgress, &protocol.ProgressParams{
			ProgressToken: protocol.StringID("abc123"), Progress: 50, Total: 100, Message: "Reticulating splines..."}),
		c("notifications/cancelled", "CancelledNotification", all, notification, protocol.NotificationCancelled, &protocol.CancelledParams{
			RequestID: protocol.Int64ID(123), Reason: "User requested cancellation"}),

		// Sampling.
		c("sampling/createMessage", "CreateMessageRequest", all, request, protocol.MethodSamplingCreateMessage, samplingParams),
		c("sampling/createMessage tools", "CreateMessageRequest", from(protocol.Version20251125), request, protocol.MethodSamplingCreateMessage, &protocol.CreateMessageParams{
			Messages: []protocol.SamplingMessage{
				{Role: protocol.RoleUser, Content: protocol.SamplingContent{&protocol.TextContent{Text: "Weather in Paris?"}}},
				{Role: protocol.RoleAssistant, Content: protocol.SamplingContent{toolUse}},
				{Role: protocol.RoleUser, Content: protocol.SamplingContent{toolResult, &protocol.AudioContent{Data: []byte{0}, MIMEType: "audio/wav"}}},
			},
			Tools: []*protocol.Tool{fullTool}, ToolChoice: &protocol.ToolChoice{Mode: protocol.ToolChoiceRequired}, MaxTokens: 1000}),
		c("CreateMessageResult", "CreateMessageResult", all, result, "", &protocol.CreateMessageResult{Role: protocol.RoleAssistant,
			Content: protocol.SamplingContent{&protocol.TextContent{Text: "Paris."}}, Model: "claude-3-sonnet-20240307", StopReason: protocol.StopReasonEndTurn}),
		c("CreateMessageResult tool use", "CreateMessageResult", from(protocol.Version20251125), result, "", &protocol.CreateMessageResult{Role: protocol.RoleAssistant,
			Content: protocol.SamplingContent{toolUse, toolUse}, Model: "m", StopReason: protocol.StopReasonToolUse}),

		// Elicitation.
		c("elicitation/create form", "ElicitRequest", from(protocol.Version20250618), request, protocol.MethodElicitationCreate, &protocol.ElicitParams{
			Message: "Please provide your contact information", RequestedSchema: formSchema}),
		c("elicitation/create form mode", "ElicitRequest", from(protocol.Version20251125), request, protocol.MethodElicitationCreate, &protocol.ElicitParams{
			Mode: protocol.ElicitModeForm, Message: "Please provide your contact information", RequestedSchema: formSchema}),
		c("elicitation/create url", "ElicitRequest", from(protocol.Version20251125), request, protocol.MethodElicitationCreate, &protocol.ElicitParams{
			Mode: protocol.ElicitModeURL, Message: "Please provide your API key to continue.", URL: "https://mcp.example.com/ui/set_api_key",
			ElicitationID: "550e8400-e29b-41d4-a716-446655440000"}),
		c("ElicitResult", "ElicitResult", from(protocol.Version20250618), result, "", &protocol.ElicitResult{Action: protocol.ElicitActionAccept,
			Content: rawObj(`{"name":"Monalisa Octocat","email":"octocat@github.com","age":30,"subscribe":true}`)}),
		c("ElicitResult multi-select", "ElicitResult", from(protocol.Version20251125), result, "", &protocol.ElicitResult{Action: protocol.ElicitActionAccept,
			Content: rawObj(`{"colors":["red","green"]}`)}),
		c("ElicitResult cancel", "ElicitResult", from(protocol.Version20250618), result, "", &protocol.ElicitResult{Action: protocol.ElicitActionCancel}),
		c("elicitation/complete", "ElicitationCompleteNotification", only(protocol.Version20251125), notification, protocol.NotificationElicitationComplete,
			&protocol.ElicitationCompleteParams{ElicitationID: "550e8400-e29b-41d4-a716-446655440000"}),

		// Roots.
		c("roots/list", "ListRootsRequest", all, request, protocol.MethodRootsList, nil),
		c("ListRootsResult", "ListRootsResult", all, result, "", &protocol.ListRootsResult{Roots: []protocol.Root{{URI: "file:///home/user/projects/frontend",
			Name: "Frontend Repository"}, {URI: "file:///home/user/projects/backend"}}}),
		c("roots/list_changed", "RootsListChangedNotification", upTo(protocol.Version20251125), notification, protocol.NotificationRootsListChanged, nil),

		// Multi round-trip requests.
		c("InputRequiredResult", "InputRequiredResult", only(protocol.Version20260728), result, "", &protocol.InputRequiredResult{
			ResultType: protocol.ResultTypeInputRequired, RequestState: "AEAD-protected blob",
			InputRequests: protocol.InputRequests{
				"github_login":      {Method: protocol.MethodElicitationCreate, Params: mustMarshal(&protocol.ElicitParams{Mode: protocol.ElicitModeForm, Message: "GitHub username?", RequestedSchema: formSchema})},
				"capital_of_france": {Method: protocol.MethodSamplingCreateMessage, Params: mustMarshal(samplingParams)},
				"roots":             {Method: protocol.MethodRootsList},
			}}),
		c("InputRequiredResult state only", "InputRequiredResult", only(protocol.Version20260728), result, "", &protocol.InputRequiredResult{
			ResultType: protocol.ResultTypeInputRequired, RequestState: "retry-later"}),

		// Tasks (2025-11-25).
		c("CreateTaskResult", "CreateTaskResult", only(protocol.Version20251125), result, "", &protocol.CreateTaskResult{Task: task,
			Meta: protocol.Meta{"io.modelcontextprotocol/model-immediate-response": "Working on it."}}),
		c("tasks/get", "GetTaskRequest", only(protocol.Version20251125), request, protocol.MethodTasksGet, &protocol.TaskParams{TaskID: task.TaskID}),
		c("tasks/result", "GetTaskPayloadRequest", only(protocol.Version20251125), request, protocol.MethodTasksResult, &protocol.TaskParams{TaskID: task.TaskID}),
		c("tasks/cancel", "CancelTaskRequest", only(protocol.Version20251125), request, protocol.MethodTasksCancel, &protocol.TaskParams{TaskID: task.TaskID}),
		c("tasks/list", "ListTasksRequest", only(protocol.Version20251125), request, protocol.MethodTasksList, &protocol.ListParams{Cursor: "c"}),
		c("GetTaskResult", "GetTaskResult", only(protocol.Version20251125), result, "", &protocol.TaskResult{Task: task,
			Meta: protocol.Meta{protocol.MetaRelatedTask: map[string]any{"taskId": task.TaskID}}}),
		c("CancelTaskResult", "CancelTaskResult", only(protocol.Version20251125), result, "", &protocol.TaskResult{Task: protocol.Task{TaskID: "t",
			Status: protocol.TaskCancelled, CreatedAt: "c", LastUpdatedAt: "u"}}),
		c("ListTasksResult", "ListTasksResult", only(protocol.Version20251125), result, "", &protocol.ListTasksResult{Tasks: []protocol.Task{task}, NextCursor: "n"}),
		c("tasks/status", "TaskStatusNotification", only(protocol.Version20251125), notification, protocol.NotificationTasksStatus,
			&protocol.TaskStatusParams{Task: task}),
	}
}

func mustMarshal(v any) json.RawMessage {
	b, err := protocol.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// inputMethods travel only inside InputRequests in 2026-07-28.
var inputMethods = []string{protocol.MethodSamplingCreateMessage, protocol.MethodElicitationCreate, protocol.MethodRootsList}

// TestSpecSchemas encodes every type and validates it against the schema
// of every revision that has it.
func TestSpecSchemas(t *testing.T) {
	t.Parallel()
	spectest.Require(t)
	for _, tc := range specCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var body json.RawMessage
			if tc.value != nil {
				body = mustMarshal(tc.value)
			}
			ran := 0
			for _, rev := range spectest.Revisions() {
				if rev < tc.from || rev > tc.to {
					continue
				}
				ran++
				if !spectest.Has(t, rev, tc.def) {
					t.Errorf("%s has no definition %s", rev, tc.def)
					continue
				}
				checkSpec(t, rev, tc, body)
			}
			if ran == 0 {
				t.Fatalf("no revision in [%s, %s]", tc.from, tc.to)
			}
		})
	}
}

func checkSpec(t *testing.T, rev string, tc specCase, body json.RawMessage) {
	t.Helper()
	switch tc.kind {
	case object:
		spectest.Validate(t, rev, tc.def, body)
	case request, notification:
		if protocol.EraOf(rev).Stateless() && slices.Contains(inputMethods, tc.method) {
			in := mustMarshal(protocol.InputRequest{Method: tc.method, Params: body})
			spectest.Validate(t, rev, tc.def, in)
			spectest.Validate(t, rev, "InputRequest", in)
			return
		}
		if !protocol.HasMethod(rev, tc.method) {
			t.Errorf("HasMethod(%s, %s) = false", rev, tc.method)
		}
		req := &protocol.Request{Method: tc.method, Params: body}
		if tc.kind == request {
			req.ID = protocol.Int64ID(1)
		}
		msg, err := protocol.EncodeMessage(req)
		if err != nil {
			t.Fatal(err)
		}
		spectest.Validate(t, rev, tc.def, msg)
		spectest.ValidateMessage(t, rev, msg)
	case result:
		spectest.Validate(t, rev, tc.def, body)
		if protocol.EraOf(rev).Stateless() && (tc.def == "CreateMessageResult" || tc.def == "ElicitResult" || tc.def == "ListRootsResult") {
			spectest.Validate(t, rev, "InputResponse", body)
			return
		}
		msg, err := protocol.EncodeMessage(&protocol.Response{ID: protocol.StringID("r-1"), Result: body})
		if err != nil {
			t.Fatal(err)
		}
		spectest.ValidateMessage(t, rev, msg)
	}
}

// TestSpecErrors validates the error responses whose data has a type here.
func TestSpecErrors(t *testing.T) {
	t.Parallel()
	spectest.Require(t)
	tests := []struct {
		rev, def string
		err      *protocol.Error
	}{
		{protocol.Version20260728, "UnsupportedProtocolVersionError", protocol.ErrUnsupportedProtocolVersion.WithData(
			protocol.UnsupportedProtocolVersionData{Supported: protocol.SupportedVersions(), Requested: "1999-01-01"})},
		{protocol.Version20260728, "MissingRequiredClientCapabilityError", protocol.ErrMissingRequiredClientCapability.WithData(
			protocol.MissingRequiredClientCapabilityData{RequiredCapabilities: protocol.ClientCapabilities{Elicitation: &protocol.ElicitationCapability{}}})},
		{protocol.Version20251125, "URLElicitationRequiredError", protocol.ErrURLElicitationRequired.WithData(
			protocol.URLElicitationRequiredData{Elicitations: []protocol.ElicitParams{{Mode: protocol.ElicitModeURL, ElicitationID: "e1",
				URL: "https://mcp.example.com/connect?elicitationId=e1", Message: "Authorization is required."}}})},
	}
	for _, tt := range tests {
		t.Run(tt.def, func(t *testing.T) {
			t.Parallel()
			if tt.err.Data == nil {
				t.Fatal("WithData dropped the data")
			}
			msg, err := protocol.EncodeMessage(&protocol.Response{ID: protocol.Int64ID(1), Error: tt.err})
			if err != nil {
				t.Fatal(err)
			}
			spectest.Validate(t, tt.rev, tt.def, msg)
			spectest.ValidateMessage(t, tt.rev, msg)
		})
	}
}

// TestSpecModernRequirements checks that the 2026-07-28 schema really
// rejects what the engine must add: a result without resultType, a
// cacheable result without ttlMs and cacheScope, a request without the
// required _meta keys.
func TestSpecModernRequirements(t *testing.T) {
	t.Parallel()
	spectest.Require(t)
	const rev = protocol.Version20260728
	if !spectest.Has(t, rev, "CallToolResult") {
		t.Fatal("no CallToolResult")
	}
	for _, tc := range []struct {
		def  string
		data any
	}{
		{"CallToolResult", &protocol.CallToolResult{}},
		{"ListToolsResult", &protocol.ListToolsResult{ResultType: protocol.ResultTypeComplete}},
	} {
		ft := &fakeT{TB: t}
		spectest.Validate(ft, rev, tc.def, mustMarshal(tc.data))
		if !ft.failed {
			t.Errorf("%s: incomplete modern result passed validation", tc.def)
		}
	}
	msg, _ := protocol.EncodeMessage(&protocol.Request{ID: protocol.Int64ID(1), Method: protocol.MethodToolsList, Params: json.RawMessage(`{}`)})
	ft := &fakeT{TB: t}
	spectest.ValidateMessage(ft, rev, msg)
	if !ft.failed {
		t.Error("tools/list without _meta passed 2026-07-28 validation")
	}
}

// fakeT records failures instead of reporting them.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Helper()               {}
