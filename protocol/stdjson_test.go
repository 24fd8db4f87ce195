package protocol_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// everyContentKind holds one block of each content type, every member set.
func everyContentKind() protocol.ContentList {
	size := int64(3)
	prio := 0.5
	ann := &protocol.Annotations{Audience: []protocol.Role{protocol.RoleUser}, Priority: &prio, LastModified: "2025-01-12T15:00:58Z"}
	meta := protocol.Meta{"k": "v"}
	return protocol.ContentList{
		&protocol.TextContent{Text: "hi", Annotations: ann, Meta: meta},
		&protocol.ImageContent{Data: []byte{0, 1, 0xff}, MIMEType: "image/png", Annotations: ann, Meta: meta},
		&protocol.AudioContent{Data: []byte("wav"), MIMEType: "audio/wav", Annotations: ann, Meta: meta},
		&protocol.ResourceLink{URI: "file:///a", Name: "a", Title: "A", Description: "d", MIMEType: "text/plain",
			Annotations: ann, Size: &size, Icons: []protocol.Icon{{Src: "https://x/i.png"}}, Meta: meta},
		&protocol.EmbeddedResource{Resource: protocol.ResourceContents{URI: "mem://t", MIMEType: "text/plain", Text: "text"}, Annotations: ann, Meta: meta},
		&protocol.EmbeddedResource{Resource: protocol.ResourceContents{URI: "mem://b", Blob: []byte{1, 2}}},
		&protocol.ToolUseContent{ID: "u1", Name: "add", Input: json.RawMessage(`{"a":1}`), Meta: meta},
		&protocol.ToolResultContent{ToolUseID: "u1", Content: protocol.ContentList{&protocol.TextContent{Text: "3"}},
			StructuredContent: json.RawMessage(`{"sum":3}`), IsError: true, Meta: meta},
	}
}

// stdRoundTrip encodes v with protocol.Marshal, decodes that with
// encoding/json into a new value, and checks the value equals v and that
// encoding/json encodes it to the same wire form.
func stdRoundTrip[T any](t *testing.T, v *T) {
	t.Helper()
	wire, err := protocol.Marshal(v)
	if err != nil {
		t.Fatalf("protocol.Marshal(%T): %v", v, err)
	}
	got := new(T)
	if err := json.Unmarshal(wire, got); err != nil {
		t.Fatalf("json.Unmarshal(%s) into %T: %v", wire, got, err)
	}
	if !reflect.DeepEqual(got, v) {
		t.Errorf("%T through encoding/json:\n got %#v\nwant %#v", v, got, v)
	}
	std, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("json.Marshal(%T): %v", got, err)
	}
	var a, b any
	if err := json.Unmarshal(wire, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(std, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%T: encoding/json writes\n%s\nthe wire form is\n%s", v, std, wire)
	}
}

// TestStdJSONRoundTrip checks that encoding/json decodes and encodes the
// wire types as the protocol does: every content kind on its own, in a
// tool result, a prompt, a sampling result and a resource read, and the
// types with members inlined.
func TestStdJSONRoundTrip(t *testing.T) {
	kinds := everyContentKind()
	for _, c := range kinds {
		t.Run(reflect.TypeOf(c).Elem().Name(), func(t *testing.T) {
			switch c := c.(type) {
			case *protocol.TextContent:
				stdRoundTrip(t, c)
			case *protocol.ImageContent:
				stdRoundTrip(t, c)
			case *protocol.AudioContent:
				stdRoundTrip(t, c)
			case *protocol.ResourceLink:
				stdRoundTrip(t, c)
			case *protocol.EmbeddedResource:
				stdRoundTrip(t, c)
			case *protocol.ToolUseContent:
				stdRoundTrip(t, c)
			case *protocol.ToolResultContent:
				stdRoundTrip(t, c)
			default:
				t.Fatalf("no case for %T", c)
			}
			one := protocol.ContentList{c}
			stdRoundTrip(t, &one)
		})
	}
	t.Run("CallToolResult", func(t *testing.T) {
		stdRoundTrip(t, &protocol.CallToolResult{Meta: protocol.Meta{"m": true}, ResultType: "complete", Content: kinds,
			StructuredContent: json.RawMessage(`{"a":[1,"x"]}`), IsError: true})
		stdRoundTrip(t, &protocol.CallToolResult{Content: protocol.ContentList{}})
	})
	t.Run("GetPromptResult", func(t *testing.T) {
		r := &protocol.GetPromptResult{Description: "p"}
		for _, c := range kinds[:6] {
			r.Messages = append(r.Messages, protocol.PromptMessage{Role: protocol.RoleAssistant, Content: c})
		}
		stdRoundTrip(t, r)
	})
	t.Run("CreateMessageResult", func(t *testing.T) {
		stdRoundTrip(t, &protocol.CreateMessageResult{Role: protocol.RoleAssistant, Model: "m", Content: protocol.SamplingContent{kinds[0]}})
		stdRoundTrip(t, &protocol.CreateMessageResult{Role: protocol.RoleAssistant, Model: "m", Content: protocol.SamplingContent(kinds)})
	})
	t.Run("ReadResourceResult", func(t *testing.T) {
		stdRoundTrip(t, &protocol.ReadResourceResult{Contents: []protocol.ResourceContents{{URI: "a", Text: ""}, {URI: "b", Blob: []byte{}}}})
	})
	t.Run("Tool", func(t *testing.T) {
		stdRoundTrip(t, &protocol.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)})
	})
	t.Run("inlined", func(t *testing.T) {
		ttl := int64(5)
		task := protocol.Task{TaskID: "t", Status: protocol.TaskWorking, StatusMessage: "m", CreatedAt: "c", LastUpdatedAt: "u", TTL: &ttl}
		stdRoundTrip(t, &protocol.TaskResult{Task: task})
		stdRoundTrip(t, &protocol.TaskStatusParams{Task: task})
		stdRoundTrip(t, &protocol.Capability{Settings: map[string]json.RawMessage{"listChanged": json.RawMessage("true")}})
		stdRoundTrip(t, &protocol.RequestMeta{ProgressToken: protocol.StringID("p"), LogLevel: "info",
			Other: map[string]json.RawMessage{"x": json.RawMessage(`{"y":1}`)}})
	})
	t.Run("DetailedTask", func(t *testing.T) {
		res, err := protocol.Marshal(&protocol.CallToolResult{Content: kinds})
		if err != nil {
			t.Fatal(err)
		}
		stdRoundTrip(t, &protocol.DetailedTask{TaskID: "t", Status: protocol.TaskCompleted, Result: res})
	})
}

// TestStdJSONRejectsWhatTheWireRejects checks that encoding/json decodes
// with the wire rules: an unknown content type, a block whose "type" is
// not its Go type, and a duplicate member are errors.
func TestStdJSONRejectsWhatTheWireRejects(t *testing.T) {
	var r protocol.CallToolResult
	for _, in := range []string{
		`{"content":[{"type":"video","data":""}]}`,
		`{"content":[{"text":"no type"}]}`,
		`{"content":[{"type":"text","text":"a","text":"b"}]}`,
	} {
		if err := json.Unmarshal([]byte(in), &r); err == nil {
			t.Errorf("json.Unmarshal(%s) succeeded", in)
		}
	}
	var tc protocol.TextContent
	if err := json.Unmarshal([]byte(`{"type":"image","data":"","mimeType":"x"}`), &tc); err == nil {
		t.Error(`an image block decoded into a TextContent`)
	}
}

// FuzzStdJSONCallToolResult checks that encoding/json decodes every
// tools/call result the protocol accepts, in its wire form (as
// protocol.Marshal writes it: encoding/json's own rules, such as
// case-insensitive member names, differ outside the blocks), to the same
// content.
func FuzzStdJSONCallToolResult(f *testing.F) {
	f.Add(`{"content":[{"type":"text","text":"a"},{"type":"image","data":"/wA=","mimeType":"image/png"}],"isError":true}`)
	f.Add(`{"content":[{"type":"resource","resource":{"uri":"a","blob":"AAEC"}},{"type":"resource_link","uri":"u","name":"n","size":3}]}`)
	f.Add(`{"content":[{"type":"tool_result","toolUseId":"1","content":[{"type":"audio","data":"","mimeType":"a"}]}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		var wire protocol.CallToolResult
		if err := protocol.Unmarshal([]byte(in), &wire); err != nil {
			return
		}
		out, err := protocol.Marshal(&wire)
		if err != nil {
			return // a block the encoder refuses (checked by FuzzCallToolResult)
		}
		var again, std protocol.CallToolResult
		if err := protocol.Unmarshal(out, &again); err != nil {
			t.Fatalf("protocol.Unmarshal(%s): %v", out, err)
		}
		if err := json.Unmarshal(out, &std); err != nil {
			t.Fatalf("protocol.Unmarshal accepts %s, encoding/json refuses %s: %v", in, out, err)
		}
		if !reflect.DeepEqual(again.Content, std.Content) {
			t.Fatalf("%s: content\nprotocol      %#v\nencoding/json %#v", out, again.Content, std.Content)
		}
	})
}

// TestDetailedTaskToolResult checks the typed result of each task state: a
// completed task's *CallToolResult, a failed one's *Error, and
// ErrNoTaskResult for the others.
func TestDetailedTaskToolResult(t *testing.T) {
	res := json.RawMessage(`{"content":[{"type":"text","text":"ok"}],"isError":true}`)
	got, err := (&protocol.DetailedTask{TaskID: "t", Status: protocol.TaskCompleted, Result: res}).ToolResult()
	if err != nil || !got.IsError || len(got.Content) != 1 || got.Content[0].(*protocol.TextContent).Text != "ok" {
		t.Errorf("completed: ToolResult() = %+v, %v", got, err)
	}
	failed := &protocol.Error{Code: protocol.CodeInternalError, Message: "crashed"}
	if _, err := (&protocol.DetailedTask{TaskID: "t", Status: protocol.TaskFailed, Error: failed}).ToolResult(); !errors.Is(err, protocol.ErrInternal) {
		t.Errorf("failed: ToolResult() error = %v, want the task's -32603", err)
	}
	for _, st := range []protocol.TaskStatus{protocol.TaskWorking, protocol.TaskInputRequired, protocol.TaskCancelled} {
		if _, err := (&protocol.DetailedTask{TaskID: "t", Status: st}).ToolResult(); !errors.Is(err, protocol.ErrNoTaskResult) {
			t.Errorf("%s: ToolResult() error = %v, want ErrNoTaskResult", st, err)
		}
	}
	if _, err := (&protocol.DetailedTask{TaskID: "t", Status: protocol.TaskCompleted, Result: json.RawMessage(`{"content":[{}]}`)}).ToolResult(); err == nil {
		t.Error("completed with a bad result: ToolResult() succeeded")
	}
}
