package protocol_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// roundTrip decodes in into a T, encodes it, and checks that the encoding
// means the same JSON as in (nothing lost or added) and decodes back to an
// equal value.
func roundTrip[T any](t *testing.T, in string) *T {
	t.Helper()
	src := jsontext.Value(in)
	if err := src.Compact(); err != nil {
		t.Fatalf("bad test input: %v", err)
	}
	v1 := new(T)
	if err := protocol.Unmarshal(src, v1); err != nil {
		t.Fatalf("decode %T: %v\ninput: %s", v1, err, src)
	}
	b1, err := protocol.Marshal(v1)
	if err != nil {
		t.Fatalf("encode %T: %v", v1, err)
	}
	var a, b any
	if err := protocol.Unmarshal(src, &a); err != nil {
		t.Fatal(err)
	}
	if err := protocol.Unmarshal(b1, &b); err != nil {
		t.Fatalf("re-decode as any: %v", err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%T: encoding differs from input\n got %s\nwant %s", v1, b1, src)
	}
	v2 := new(T)
	if err := protocol.Unmarshal(b1, v2); err != nil {
		t.Fatalf("re-decode %T: %v\ndata: %s", v2, err, b1)
	}
	if !reflect.DeepEqual(v1, v2) {
		t.Errorf("%T: decode(encode(v)) != v\n got %+v\nwant %+v", v1, v2, v1)
	}
	return v1
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		run  func(t *testing.T, in string)
		in   string
	}{
		{"Implementation", rt[protocol.Implementation], `{"name":"ExampleServer","title":"Example Server Display Name","version":"1.0.0",
			"description":"An example MCP server","websiteUrl":"https://example.com",
			"icons":[{"src":"https://example.com/icon.png","mimeType":"image/png","sizes":["48x48"],"theme":"dark"}]}`},
		{"ClientCapabilities", rt[protocol.ClientCapabilities], `{"experimental":{"com.example/x":{"a":1}},"roots":{"listChanged":true},
			"sampling":{"context":{},"tools":{}},"elicitation":{"form":{},"url":{"strict":true}},
			"tasks":{"list":{},"cancel":{},"requests":{"sampling":{"createMessage":{}},"elicitation":{"create":{}}}},
			"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}`},
		{"ServerCapabilities", rt[protocol.ServerCapabilities], `{"experimental":{},"logging":{},"completions":{},
			"prompts":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"tools":{"listChanged":true},
			"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}},"extensions":{"io.modelcontextprotocol/tasks":{}}}`},
		{"InitializeParams", rt[protocol.InitializeParams], `{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}}},
			"clientInfo":{"name":"ExampleClient","title":"Example Client Display Name","version":"1.0.0","websiteUrl":"https://example.com"}}`},
		{"InitializeResult", rt[protocol.InitializeResult], `{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"prompts":{"listChanged":true},
			"resources":{"subscribe":true,"listChanged":true},"tools":{"listChanged":true}},
			"serverInfo":{"name":"ExampleServer","version":"1.0.0"},"instructions":"Optional instructions for the client"}`},
		{"DiscoverResult", rt[protocol.DiscoverResult], `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"resources":{}},
			"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"ExampleServer","version":"1.0.0"}},
			"instructions":"This server provides weather and resource utilities.","ttlMs":3600000,"cacheScope":"public"}`},
		{"ListParams", rt[protocol.ListParams], `{"cursor":"optional-cursor-value","_meta":{"progressToken":1}}`},
		{"ListToolsResult", rt[protocol.ListToolsResult], `{"resultType":"complete","tools":[{"name":"get_weather","title":"Weather Information Provider",
			"description":"Get current weather information for a location",
			"inputSchema":{"type":"object","properties":{"location":{"type":"string","description":"City name or zip code"}},"required":["location"]},
			"icons":[{"src":"https://example.com/weather-icon.png","mimeType":"image/png","sizes":["48x48"]}]}],
			"nextCursor":"next-page-cursor","ttlMs":300000,"cacheScope":"public"}`},
		{"Tool", rt[protocol.Tool], `{"name":"delete_file","description":"Deletes a file",
			"inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"path":{"type":"string"}},"required":["path"]},
			"outputSchema":{"type":"object","properties":{"deleted":{"type":"boolean"}},"required":["deleted"]},
			"annotations":{"title":"Delete","readOnlyHint":false,"destructiveHint":true,"idempotentHint":true,"openWorldHint":false},
			"execution":{"taskSupport":"optional"},"_meta":{"com.example/v":2}}`},
		{"CallToolParams", rt[protocol.CallToolParams], `{"name":"get_weather","arguments":{"location":"New York"},
			"_meta":{"progressToken":"abc123"},"task":{"ttl":60000}}`},
		{"CallToolParams retry", rt[protocol.CallToolParams], `{"name":"get_weather","arguments":{"location":"New York"},
			"inputResponses":{"github_login":{"action":"accept","content":{"name":"octocat"}}},
			"requestState":"eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0..."}`},
		{"CallToolResult", rt[protocol.CallToolResult], `{"resultType":"complete","content":[
			{"type":"text","text":"Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy"},
			{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","annotations":{"audience":["user"],"priority":0.9}},
			{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"},
			{"type":"resource_link","uri":"file:///project/src/main.rs","name":"main.rs","description":"Primary entry point","mimeType":"text/x-rust","size":1024},
			{"type":"resource","resource":{"uri":"file:///project/README.md","mimeType":"text/markdown","text":"# Project"},
				"annotations":{"audience":["user","assistant"],"priority":0.7,"lastModified":"2025-05-03T14:30:00Z"}}],
			"structuredContent":{"temperature":22.5,"conditions":"Partly cloudy","humidity":65},"_meta":{"k":"v"}}`},
		{"CallToolResult error", rt[protocol.CallToolResult], `{"content":[{"type":"text","text":"Invalid departure date"}],"isError":true}`},
		{"CallToolResult empty", rt[protocol.CallToolResult], `{"content":[]}`},
		{"CallToolResult non-object structured", rt[protocol.CallToolResult], `{"content":[],"structuredContent":[1,2,3]}`},
		{"Resource", rt[protocol.Resource], `{"uri":"file:///project/src/main.rs","name":"main.rs","title":"Rust Software Application Main File",
			"description":"Primary application entry point","mimeType":"text/x-rust","size":2048,
			"annotations":{"audience":["user"],"priority":0.8,"lastModified":"2025-01-12T15:00:58Z"},
			"icons":[{"src":"data:image/png;base64,iVBORw0KGgo=","theme":"light"}],"_meta":{"x":null}}`},
		{"ListResourcesResult", rt[protocol.ListResourcesResult], `{"resultType":"complete","resources":[{"uri":"file:///project/src/main.rs","name":"main.rs","mimeType":"text/x-rust"}],
			"nextCursor":"next-page-cursor","ttlMs":60000,"cacheScope":"private"}`},
		{"ListResourceTemplatesResult", rt[protocol.ListResourceTemplatesResult], `{"resourceTemplates":[{"uriTemplate":"file:///{path}","name":"Project Files",
			"title":"📁 Project Files","description":"Access files in the project directory","mimeType":"application/octet-stream"}]}`},
		{"ReadResourceParams", rt[protocol.ReadResourceParams], `{"uri":"file:///project/src/main.rs","requestState":"s"}`},
		{"ReadResourceResult", rt[protocol.ReadResourceResult], `{"contents":[
			{"uri":"file:///project/src/main.rs","mimeType":"text/x-rust","text":"fn main() {\n    println!(\"Hello world!\");\n}"},
			{"uri":"file:///project/logo.png","mimeType":"image/png","blob":"iVBORw0KGgo=","_meta":{"a":1}},
			{"uri":"file:///empty.txt","text":""},{"uri":"file:///empty.bin","blob":""}],"ttlMs":0,"cacheScope":"public"}`},
		{"SubscribeParams", rt[protocol.SubscribeParams], `{"uri":"file:///project/src/main.rs"}`},
		{"UnsubscribeParams", rt[protocol.UnsubscribeParams], `{"uri":"file:///project/src/main.rs"}`},
		{"ListPromptsResult", rt[protocol.ListPromptsResult], `{"prompts":[{"name":"code_review","title":"Request Code Review",
			"description":"Asks the LLM to analyze code quality and suggest improvements",
			"arguments":[{"name":"code","title":"Code","description":"The code to review","required":true}],
			"icons":[{"src":"https://example.com/review.svg","mimeType":"image/svg+xml","sizes":["any"]}]}],"nextCursor":"next-page-cursor"}`},
		{"GetPromptParams", rt[protocol.GetPromptParams], `{"name":"code_review","arguments":{"code":"def hello():\n    print('world')"}}`},
		{"GetPromptResult", rt[protocol.GetPromptResult], `{"description":"Code review prompt","messages":[
			{"role":"user","content":{"type":"text","text":"Please review this Python code:\ndef hello():\n    print('world')"}},
			{"role":"assistant","content":{"type":"resource","resource":{"uri":"resource://example","mimeType":"text/plain","text":"Resource content"}}},
			{"role":"user","content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}}]}`},
		{"CompleteParams prompt", rt[protocol.CompleteParams], `{"ref":{"type":"ref/prompt","name":"code_review"},
			"argument":{"name":"language","value":"py"},"context":{"arguments":{"framework":"flask"}}}`},
		{"CompleteParams resource", rt[protocol.CompleteParams], `{"ref":{"type":"ref/resource","uri":"file:///{path}"},"argument":{"name":"path","value":"src/"}}`},
		{"CompleteResult", rt[protocol.CompleteResult], `{"completion":{"values":["python","pytorch","pyside"],"total":10,"hasMore":true}}`},
		{"SetLevelParams", rt[protocol.SetLevelParams], `{"level":"info"}`},
		{"LoggingMessageParams", rt[protocol.LoggingMessageParams], `{"level":"error","logger":"database",
			"data":{"error":"Connection failed","details":{"host":"localhost","port":5432}}}`},
		{"CreateMessageParams", rt[protocol.CreateMessageParams], `{"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],
			"modelPreferences":{"hints":[{"name":"claude-3-sonnet"}],"intelligencePriority":0.8,"speedPriority":0.5},
			"systemPrompt":"You are a helpful assistant.","includeContext":"none","temperature":0.7,"maxTokens":100,
			"stopSequences":["\n\nHuman:"],"metadata":{"provider":"x"}}`},
		{"CreateMessageParams tools", rt[protocol.CreateMessageParams], `{"messages":[
			{"role":"user","content":{"type":"text","text":"What's the weather like in Paris and London?"}},
			{"role":"assistant","content":[{"type":"tool_use","id":"call_abc123","name":"get_weather","input":{"city":"Paris"}},
				{"type":"tool_use","id":"call_def456","name":"get_weather","input":{"city":"London"}}]},
			{"role":"user","content":[{"type":"tool_result","toolUseId":"call_abc123","content":[{"type":"text","text":"Weather in Paris: 18°C, partly cloudy"}]},
				{"type":"tool_result","toolUseId":"call_def456","content":[],"structuredContent":{"t":12},"isError":true,"_meta":{"k":1}}]}],
			"tools":[{"name":"get_weather","description":"Get current weather for a city",
				"inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}],
			"toolChoice":{"mode":"auto"},"maxTokens":1000}`},
		{"CreateMessageResult", rt[protocol.CreateMessageResult], `{"role":"assistant","content":{"type":"text","text":"The capital of France is Paris."},
			"model":"claude-3-sonnet-20240307","stopReason":"endTurn"}`},
		{"CreateMessageResult tool use", rt[protocol.CreateMessageResult], `{"role":"assistant","content":[
			{"type":"tool_use","id":"call_abc123","name":"get_weather","input":{"city":"Paris"}},
			{"type":"tool_use","id":"call_def456","name":"get_weather","input":{"city":"London"}}],
			"model":"claude-3-sonnet-20240307","stopReason":"toolUse"}`},
		{"ElicitParams form", rt[protocol.ElicitParams], `{"mode":"form","message":"Please provide your contact information",
			"requestedSchema":{"type":"object","properties":{"name":{"type":"string","description":"Your full name"},
			"email":{"type":"string","format":"email"},"age":{"type":"number","minimum":18}},"required":["name","email"]}}`},
		{"ElicitParams url", rt[protocol.ElicitParams], `{"mode":"url","elicitationId":"550e8400-e29b-41d4-a716-446655440000",
			"url":"https://mcp.example.com/ui/set_api_key","message":"Please provide your API key to continue."}`},
		{"ElicitResult", rt[protocol.ElicitResult], `{"action":"accept","content":{"name":"Monalisa Octocat","email":"octocat@github.com","age":30,"tags":["a","b"],"ok":true}}`},
		{"ElicitResult decline", rt[protocol.ElicitResult], `{"action":"decline"}`},
		{"ElicitationCompleteParams", rt[protocol.ElicitationCompleteParams], `{"elicitationId":"550e8400-e29b-41d4-a716-446655440000"}`},
		{"URLElicitationRequiredData", rt[protocol.URLElicitationRequiredData], `{"elicitations":[{"mode":"url","elicitationId":"e1",
			"url":"https://mcp.example.com/connect?elicitationId=e1","message":"Authorization is required to access your Example Co files."}]}`},
		{"ListRootsResult", rt[protocol.ListRootsResult], `{"roots":[{"uri":"file:///home/user/projects/frontend","name":"Frontend Repository"},
			{"uri":"file:///home/user/projects/backend","_meta":{"k":1}}]}`},
		{"ProgressParams", rt[protocol.ProgressParams], `{"progressToken":"abc123","progress":50,"total":100,"message":"Reticulating splines..."}`},
		{"ProgressParams numeric token", rt[protocol.ProgressParams], `{"progressToken":12345678901234567890,"progress":0.5}`},
		{"CancelledParams", rt[protocol.CancelledParams], `{"requestId":"123","reason":"User requested cancellation"}`},
		{"ResourceUpdatedParams", rt[protocol.ResourceUpdatedParams], `{"uri":"file:///project/src/main.rs","_meta":{"io.modelcontextprotocol/subscriptionId":1}}`},
		{"NotificationParams", rt[protocol.NotificationParams], `{"_meta":{"io.modelcontextprotocol/subscriptionId":"sub-1"}}`},
		{"SubscriptionsListenParams", rt[protocol.SubscriptionsListenParams], `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
			"io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{}},
			"notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourcesListChanged":true,"resourceSubscriptions":["file:///project/config.json"]}}`},
		{"SubscriptionsListenResult", rt[protocol.SubscriptionsListenResult], `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":1}}`},
		{"SubscriptionsAcknowledgedParams", rt[protocol.SubscriptionsAcknowledgedParams], `{"_meta":{"io.modelcontextprotocol/subscriptionId":1},
			"notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///project/config.json"]}}`},
		{"InputRequiredResult", rt[protocol.InputRequiredResult], `{"resultType":"input_required","inputRequests":{
			"github_login":{"method":"elicitation/create","params":{"mode":"form","message":"Please provide your GitHub username",
				"requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}},
			"capital_of_france":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],
				"modelPreferences":{"hints":[{"name":"claude-3-sonnet"}],"intelligencePriority":0.8,"speedPriority":0.5},"systemPrompt":"You are a helpful assistant.","maxTokens":100}},
			"roots":{"method":"roots/list"}},"requestState":"AEAD-protected blob"}`},
		{"InputResponseParams", rt[protocol.InputResponseParams], `{"inputResponses":{"github_login":{"action":"accept","content":{"name":"octocat"}},
			"capital_of_france":{"role":"assistant","content":{"type":"text","text":"The capital of France is Paris."},"model":"claude-3-sonnet-20240307","stopReason":"endTurn"}},
			"requestState":"AEAD-protected blob"}`},
		{"CreateTaskResult", rt[protocol.CreateTaskResult], `{"task":{"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"working",
			"statusMessage":"The operation is now in progress.","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:40:00Z","ttl":60000,"pollInterval":5000}}`},
		{"TaskResult", rt[protocol.TaskResult], `{"taskId":"t1","status":"completed","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:50:00Z","ttl":null,"_meta":{"a":1}}`},
		{"TaskParams", rt[protocol.TaskParams], `{"taskId":"t1"}`},
		{"TaskCreatedResult", rt[protocol.TaskCreatedResult], `{"resultType":"task","taskId":"t1","status":"working","createdAt":"2026-07-28T10:30:00Z","lastUpdatedAt":"2026-07-28T10:30:00Z","ttlMs":60000,"pollIntervalMs":5000}`},
		{"DetailedTask completed", rt[protocol.DetailedTask], `{"resultType":"complete","taskId":"t1","status":"completed","createdAt":"2026-07-28T10:30:00Z","lastUpdatedAt":"2026-07-28T10:50:00Z","ttlMs":null,"result":{"content":[{"type":"text","text":"done"}]}}`},
		{"DetailedTask failed", rt[protocol.DetailedTask], `{"taskId":"t1","status":"failed","createdAt":"2026-07-28T10:30:00Z","lastUpdatedAt":"2026-07-28T10:50:00Z","ttlMs":60000,"error":{"code":-32603,"message":"boom"}}`},
		{"DetailedTask input_required", rt[protocol.DetailedTask], `{"taskId":"t1","status":"input_required","createdAt":"2026-07-28T10:30:00Z","lastUpdatedAt":"2026-07-28T10:50:00Z","ttlMs":60000,"inputRequests":{"confirm":{"method":"elicitation/create","params":{"message":"ok?","requestedSchema":{"type":"object","properties":{}}}}}}`},
		{"TaskUpdateParams", rt[protocol.TaskUpdateParams], `{"taskId":"t1","inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}}}`},
		{"ListTasksResult", rt[protocol.ListTasksResult], `{"tasks":[{"taskId":"t1","status":"input_required","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:50:00Z","ttl":30000}],"nextCursor":"c"}`},
		{"TaskStatusParams", rt[protocol.TaskStatusParams], `{"taskId":"t1","status":"failed","statusMessage":"boom","createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:50:00Z","ttl":60000}`},
		{"UnsupportedProtocolVersionData", rt[protocol.UnsupportedProtocolVersionData], `{"supported":["2026-07-28","2025-11-25"],"requested":"1999-01-01"}`},
		{"MissingRequiredClientCapabilityData", rt[protocol.MissingRequiredClientCapabilityData], `{"requiredCapabilities":{"elicitation":{"url":{}}}}`},
		{"EmptyResult", rt[protocol.EmptyResult], `{"resultType":"complete"}`},
		{"RequestParams", rt[protocol.RequestParams], `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t, tt.in)
		})
	}
}

func rt[T any](t *testing.T, in string) { roundTrip[T](t, in) }

func TestRoundTripValues(t *testing.T) {
	t.Parallel()
	// Exact numbers survive in raw members.
	r := roundTrip[protocol.ElicitResult](t, `{"action":"accept","content":{"age":30,"big":12345678901234567890123}}`)
	if got := string(r.Content); got != `{"age":30,"big":12345678901234567890123}` {
		t.Errorf("content = %s", got)
	}
	p := roundTrip[protocol.ProgressParams](t, `{"progressToken":1.0,"progress":1}`)
	if p.ProgressToken.Raw() != "1.0" {
		t.Errorf("progress token = %s, want 1.0", p.ProgressToken.Raw())
	}
	// Content types come back as the right Go types.
	res := roundTrip[protocol.CallToolResult](t, `{"content":[{"type":"text","text":"a"},{"type":"image","data":"/wA=","mimeType":"image/png"},
		{"type":"resource","resource":{"uri":"u:x","blob":"AAEC"}}]}`)
	if _, ok := res.Content[0].(*protocol.TextContent); !ok {
		t.Errorf("content[0] is %T", res.Content[0])
	}
	if img, ok := res.Content[1].(*protocol.ImageContent); !ok || string(img.Data) != "\xff\x00" {
		t.Errorf("content[1] = %#v", res.Content[1])
	}
	if emb, ok := res.Content[2].(*protocol.EmbeddedResource); !ok || string(emb.Resource.Blob) != "\x00\x01\x02" {
		t.Errorf("content[2] = %#v", res.Content[2])
	}
	msg := roundTrip[protocol.CreateMessageResult](t, `{"role":"assistant","content":[{"type":"tool_use","id":"1","name":"n","input":{}},{"type":"text","text":"x"}],"model":"m"}`)
	if tu, ok := msg.Content[0].(*protocol.ToolUseContent); !ok || tu.ID != "1" {
		t.Errorf("sampling content[0] = %#v", msg.Content[0])
	}
}

func TestEncoding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"empty CallToolResult", &protocol.CallToolResult{}, `{"content":[]}`},
		{"CallToolResult literal slice", &protocol.CallToolResult{Content: []protocol.Content{&protocol.TextContent{Text: "hi"}}, IsError: true},
			`{"content":[{"type":"text","text":"hi"}],"isError":true}`},
		{"Tool without schema", &protocol.Tool{Name: "ping"}, `{"name":"ping","inputSchema":{"type":"object"}}`},
		{"Tool value", protocol.Tool{Name: "ping"}, `{"name":"ping","inputSchema":{"type":"object"}}`},
		{"Tool raw schema", &protocol.Tool{Name: "x", InputSchema: json.RawMessage(`{"type":"object","properties":{"b":{},"a":{}}}`)},
			`{"name":"x","inputSchema":{"type":"object","properties":{"b":{},"a":{}}}}`},
		{"text block value", protocol.TextContent{Text: "x"}, `{"type":"text","text":"x"}`},
		{"image base64", &protocol.ImageContent{Data: []byte{0xff, 0x00}, MIMEType: "image/png"}, `{"type":"image","data":"/wA=","mimeType":"image/png"}`},
		{"image no data", &protocol.ImageContent{MIMEType: "image/png"}, `{"type":"image","data":"","mimeType":"image/png"}`},
		{"tool use nil input", &protocol.ToolUseContent{ID: "1", Name: "n"}, `{"type":"tool_use","id":"1","name":"n","input":{}}`},
		{"tool result empty", &protocol.ToolResultContent{ToolUseID: "1"}, `{"type":"tool_result","toolUseId":"1","content":[]}`},
		{"empty text resource", protocol.ResourceContents{URI: "file:///a"}, `{"uri":"file:///a","text":""}`},
		{"empty blob resource", protocol.ResourceContents{URI: "file:///a", Blob: []byte{}, Text: "ignored"}, `{"uri":"file:///a","blob":""}`},
		{"embedded resource", &protocol.EmbeddedResource{Resource: protocol.ResourceContents{URI: "file:///a", MIMEType: "text/plain", Text: "t"}},
			`{"type":"resource","resource":{"uri":"file:///a","mimeType":"text/plain","text":"t"}}`},
		{"single sampling content", &protocol.SamplingMessage{Role: protocol.RoleUser, Content: protocol.SamplingContent{&protocol.TextContent{Text: "q"}}},
			`{"role":"user","content":{"type":"text","text":"q"}}`},
		{"two sampling contents", &protocol.SamplingMessage{Role: protocol.RoleUser, Content: protocol.SamplingContent{&protocol.TextContent{Text: "a"}, &protocol.TextContent{Text: "b"}}},
			`{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`},
		{"list result nil page", &protocol.ListToolsResult{}, `{"tools":[]}`},
		{"cacheable zero ttl", &protocol.ListPromptsResult{TTLMs: new(int64(0)), CacheScope: protocol.CacheScopePrivate}, `{"ttlMs":0,"cacheScope":"private","prompts":[]}`},
		{"completion", &protocol.CompleteResult{}, `{"completion":{"values":[]}}`},
		{"capability", &protocol.ServerCapabilities{Logging: &protocol.Capability{}, Tools: &protocol.ToolsCapability{}}, `{"logging":{},"tools":{}}`},
		{"task ttl null", &protocol.Task{TaskID: "t", Status: protocol.TaskWorking, CreatedAt: "c", LastUpdatedAt: "u"},
			`{"taskId":"t","status":"working","createdAt":"c","lastUpdatedAt":"u","ttl":null}`},
		{"cancelled without id", &protocol.CancelledParams{Reason: "r"}, `{"reason":"r"}`},
		{"cancelled numeric id", &protocol.CancelledParams{RequestID: protocol.Int64ID(3)}, `{"requestId":3}`},
		{"logging nil data", &protocol.LoggingMessageParams{Level: protocol.LevelInfo}, `{"level":"info","data":null}`},
		{"input request", protocol.InputRequest{Method: protocol.MethodRootsList}, `{"method":"roots/list"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := protocol.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("Marshal =\n  %s\nwant\n  %s", b, tt.want)
			}
		})
	}
}

func TestEncodingErrors(t *testing.T) {
	t.Parallel()
	for name, v := range map[string]any{
		"nil content in list":     &protocol.CallToolResult{Content: []protocol.Content{nil}},
		"nil prompt content":      &protocol.PromptMessage{Role: protocol.RoleUser},
		"nil sampling content":    &protocol.SamplingMessage{Role: protocol.RoleUser, Content: protocol.SamplingContent{nil}},
		"invalid raw arguments":   &protocol.CallToolParams{Name: "x", Arguments: json.RawMessage(`{`)},
		"invalid raw inputSchema": &protocol.Tool{Name: "x", InputSchema: json.RawMessage(`{"type":}`)},
	} {
		if b, err := protocol.Marshal(v); err == nil {
			t.Errorf("%s: Marshal = %s, want an error", name, b)
		}
	}
}

func TestDecodingErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		v       any
		in      string
		wantErr string // substring
	}{
		{"unknown content type", new(protocol.CallToolResult), `{"content":[{"type":"video","url":"x"}]}`, `"video"`},
		{"missing content type", new(protocol.CallToolResult), `{"content":[{"text":"x"}]}`, `without a "type"`},
		{"content type case", new(protocol.CallToolResult), `{"content":[{"Type":"text","text":"x"}]}`, `without a "type"`},
		{"content type not string", new(protocol.CallToolResult), `{"content":[{"type":1}]}`, `must be a string`},
		{"content not array", new(protocol.CallToolResult), `{"content":{"type":"text","text":"x"}}`, "must be an array"},
		{"content element not object", new(protocol.CallToolResult), `{"content":["x"]}`, "JSON object"},
		{"prompt content unknown", new(protocol.GetPromptResult), `{"messages":[{"role":"user","content":{"type":"tool_use","id":"1","name":"n","input":{}}},{"role":"user","content":{"type":"x"}}]}`, `"x"`},
		{"prompt content missing", new(protocol.PromptMessage), `{"role":"user"}`, "content"},
		{"sampling content scalar", new(protocol.SamplingMessage), `{"role":"user","content":"hi"}`, "object or an array"},
		{"wrong typed block", new(protocol.TextContent), `{"type":"image","data":"","mimeType":"x"}`, `want "text"`},
		{"resource contents without text or blob", new(protocol.ReadResourceResult), `{"contents":[{"uri":"file:///a"}]}`, `"text" or "blob"`},
		{"bad base64", new(protocol.ImageContent), `{"type":"image","data":"/wA","mimeType":"image/png"}`, ""},
		{"bad base64 blob", new(protocol.ResourceContents), `{"uri":"a","blob":"***"}`, ""},
		{"duplicate tool name", new(protocol.Tool), `{"name":"a","name":"b","inputSchema":{"type":"object"}}`, "duplicate"},
		{"duplicate in schema", new(protocol.Tool), `{"name":"a","inputSchema":{"type":"object","type":"string"}}`, "duplicate"},
		{"duplicate params name", new(protocol.CallToolParams), `{"name":"a","arguments":{},"name":"b"}`, "duplicate"},
		{"duplicate in arguments", new(protocol.CallToolParams), `{"name":"a","arguments":{"x":1,"x":2}}`, "duplicate"},
		{"duplicate content type", new(protocol.CallToolResult), `{"content":[{"type":"text","type":"text","text":"x"}]}`, "duplicate"},
		{"duplicate content text", new(protocol.CallToolResult), `{"content":[{"type":"text","text":"x","text":"y"}]}`, "duplicate"},
		{"duplicate elicit action", new(protocol.ElicitResult), `{"action":"accept","action":"decline"}`, "duplicate"},
		{"duplicate meta key", new(protocol.Resource), `{"uri":"a","name":"b","_meta":{"k":1,"k":2}}`, "duplicate"},
		{"invalid UTF-8", new(protocol.TextContent), "{\"type\":\"text\",\"text\":\"\xff\"}", "UTF-8"},
		{"progress token bool", new(protocol.ProgressParams), `{"progressToken":true,"progress":1}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := protocol.Unmarshal([]byte(tt.in), tt.v)
			if err == nil {
				t.Fatalf("Unmarshal(%s) succeeded: %+v", tt.in, tt.v)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not mention %q", err, tt.wantErr)
			}
		})
	}
}

// TestCaseSensitive checks that member names match exactly: "Name" is an
// unknown member, never "name".
func TestCaseSensitive(t *testing.T) {
	t.Parallel()
	var tool protocol.Tool
	if err := protocol.Unmarshal([]byte(`{"Name":"evil","name":"good","INPUTSCHEMA":{"type":"object"}}`), &tool); err != nil {
		t.Fatal(err)
	}
	if tool.Name != "good" || tool.InputSchema != nil {
		t.Errorf("Tool = %+v", tool)
	}
	var call protocol.CallToolParams
	if err := protocol.Unmarshal([]byte(`{"Name":"x","Arguments":{"a":1}}`), &call); err != nil {
		t.Fatal(err)
	}
	if call.Name != "" || call.Arguments != nil {
		t.Errorf(`"Name" decoded into name: %+v`, call)
	}
	var text protocol.TextContent
	if err := protocol.Unmarshal([]byte(`{"type":"text","Text":"x"}`), &text); err != nil {
		t.Fatal(err)
	}
	if text.Text != "" {
		t.Errorf(`"Text" decoded into text: %+v`, text)
	}
	var el protocol.ElicitResult
	if err := protocol.Unmarshal([]byte(`{"Action":"accept"}`), &el); err != nil {
		t.Fatal(err)
	}
	if el.Action != "" {
		t.Errorf(`"Action" decoded into action: %+v`, el)
	}
	var caps protocol.ClientCapabilities
	if err := protocol.Unmarshal([]byte(`{"Sampling":{},"ROOTS":{}}`), &caps); err != nil {
		t.Fatal(err)
	}
	if caps.Sampling != nil || caps.Roots != nil {
		t.Errorf("capabilities matched case-insensitively: %+v", caps)
	}
}

func TestSamplingContentForms(t *testing.T) {
	t.Parallel()
	var one, many protocol.SamplingMessage
	if err := protocol.Unmarshal([]byte(`{"role":"user","content":{"type":"text","text":"a"}}`), &one); err != nil {
		t.Fatal(err)
	}
	if err := protocol.Unmarshal([]byte(`{"role":"user","content":[{"type":"text","text":"a"}]}`), &many); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, many) {
		t.Errorf("object and one-element array differ: %+v vs %+v", one, many)
	}
	var empty protocol.SamplingMessage
	if err := protocol.Unmarshal([]byte(`{"role":"user","content":[]}`), &empty); err != nil || len(empty.Content) != 0 {
		t.Errorf("empty array: %+v, %v", empty, err)
	}
}

func TestDecodeAcceptsExplicitDefaults(t *testing.T) {
	t.Parallel()
	var r protocol.CallToolResult
	if err := protocol.Unmarshal([]byte(`{"resultType":"complete","content":[{"type":"text","text":"x"}],"isError":false,"structuredContent":null}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.IsError || len(r.Content) != 1 {
		t.Errorf("%+v", r)
	}
	var rc protocol.ResourceContents
	if err := protocol.Unmarshal([]byte(`{"uri":"a","text":"t","blob":"AA=="}`), &rc); err != nil {
		t.Fatal(err)
	}
	if rc.Text != "t" || string(rc.Blob) != "\x00" {
		t.Errorf("%+v", rc)
	}
}

func TestLoggingLevel(t *testing.T) {
	t.Parallel()
	levels := []protocol.LoggingLevel{protocol.LevelDebug, protocol.LevelInfo, protocol.LevelNotice, protocol.LevelWarning,
		protocol.LevelError, protocol.LevelCritical, protocol.LevelAlert, protocol.LevelEmergency}
	for i, l := range levels {
		if l.Severity() != i || !l.IsValid() {
			t.Errorf("%s: Severity %d, IsValid %v", l, l.Severity(), l.IsValid())
		}
		for j, m := range levels {
			if got := l.AtLeast(m); got != (i >= j) {
				t.Errorf("%s.AtLeast(%s) = %v", l, m, got)
			}
		}
	}
	for _, l := range []protocol.LoggingLevel{"", "Debug", "warn", "fatal"} {
		if l.IsValid() || l.Severity() != -1 || l.AtLeast(protocol.LevelDebug) || protocol.LevelEmergency.AtLeast(l) {
			t.Errorf("%q accepted as a level", l)
		}
	}
}

func TestHasMethod(t *testing.T) {
	t.Parallel()
	tests := []struct {
		version, method string
		want            bool
	}{
		{protocol.Version20241105, protocol.MethodInitialize, true},
		{protocol.Version20251125, protocol.MethodInitialize, true},
		{protocol.Version20260728, protocol.MethodInitialize, false},
		{protocol.Version20260728, protocol.MethodPing, false},
		{protocol.Version20260728, protocol.MethodServerDiscover, true},
		{protocol.Version20251125, protocol.MethodServerDiscover, false},
		{protocol.Version20241105, protocol.MethodToolsCall, true},
		{protocol.Version20260728, protocol.MethodToolsCall, true},
		{protocol.Version20250326, protocol.MethodElicitationCreate, false},
		{protocol.Version20250618, protocol.MethodElicitationCreate, true},
		{protocol.Version20260728, protocol.MethodElicitationCreate, false},
		{protocol.Version20260728, protocol.MethodSamplingCreateMessage, false},
		{protocol.Version20251125, protocol.MethodTasksGet, true},
		{protocol.Version20250618, protocol.MethodTasksGet, false},
		{protocol.Version20260728, protocol.MethodTasksGet, false},
		{protocol.Version20260728, protocol.NotificationSubscriptionsAcknowledged, true},
		{protocol.Version20260728, protocol.NotificationRootsListChanged, false},
		{protocol.Version20251125, protocol.NotificationElicitationComplete, true},
		{protocol.Version20260728, protocol.NotificationElicitationComplete, false},
		{protocol.Version20260728, protocol.NotificationMessage, true},
		{protocol.Version20260728, "tools/nope", false},
		{"2099-01-01", protocol.MethodToolsCall, false},
	}
	for _, tt := range tests {
		if got := protocol.HasMethod(tt.version, tt.method); got != tt.want {
			t.Errorf("HasMethod(%s, %s) = %v, want %v", tt.version, tt.method, got, tt.want)
		}
	}
}
