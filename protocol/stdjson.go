package protocol

import (
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// encoding/json compatibility. The wire types are written for json v2
// (MarshalJSONTo, UnmarshalJSONFrom and `json:",embed"` members), which
// encoding/json does not know: without the methods below it fails on a
// ContentList ("cannot unmarshal object into Go value of type
// protocol.Content"), encodes a block without its "type" and nests an
// embedded member under its Go name. Each type that needs it has
// MarshalJSON and UnmarshalJSON methods that go through Marshal and
// Unmarshal, so json.Marshal and json.Unmarshal give the wire form, with
// the wire rules, at any depth of a user's own types. json v2 (and so
// fastmcp's own encoding) prefers MarshalJSONTo and UnmarshalJSONFrom, so
// the methods cost it nothing.

// MarshalJSON encodes the block with "type":"text", for encoding/json.
func (c TextContent) MarshalJSON() ([]byte, error) { return jsonMarshal(c) }

// UnmarshalJSON decodes a block whose type must be "text", for encoding/json.
func (c *TextContent) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, c) }

// MarshalJSON encodes the block with "type":"image", for encoding/json.
func (c ImageContent) MarshalJSON() ([]byte, error) { return jsonMarshal(c) }

// UnmarshalJSON decodes a block whose type must be "image", for encoding/json.
func (c *ImageContent) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, c) }

// MarshalJSON encodes the block with "type":"audio", for encoding/json.
func (c AudioContent) MarshalJSON() ([]byte, error) { return jsonMarshal(c) }

// UnmarshalJSON decodes a block whose type must be "audio", for encoding/json.
func (c *AudioContent) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, c) }

// MarshalJSON encodes the block with "type":"resource_link", for encoding/json.
func (c ResourceLink) MarshalJSON() ([]byte, error) { return jsonMarshal(c) }

// UnmarshalJSON decodes a block whose type must be "resource_link", for
// encoding/json.
func (c *ResourceLink) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, c) }

// MarshalJSON encodes the block with "type":"resource", for encoding/json.
func (c EmbeddedResource) MarshalJSON() ([]byte, error) { return jsonMarshal(c) }

// UnmarshalJSON decodes a block whose type must be "resource", for
// encoding/json.
func (c *EmbeddedResource) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, c) }

// MarshalJSON encodes the block with "type":"tool_use", for encoding/json.
func (c ToolUseContent) MarshalJSON() ([]byte, error) { return jsonMarshal(c) }

// UnmarshalJSON decodes a block whose type must be "tool_use", for
// encoding/json.
func (c *ToolUseContent) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, c) }

// MarshalJSON encodes the block with "type":"tool_result", for encoding/json.
func (c ToolResultContent) MarshalJSON() ([]byte, error) { return jsonMarshal(c) }

// UnmarshalJSON decodes a block whose type must be "tool_result", for
// encoding/json.
func (c *ToolResultContent) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, c) }

// MarshalJSON encodes the list as an array of blocks, each with its
// "type", for encoding/json.
func (l ContentList) MarshalJSON() ([]byte, error) { return jsonMarshal(l) }

// UnmarshalJSON decodes an array of blocks, each into the Go type its
// "type" names, for encoding/json.
func (l *ContentList) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, l) }

// MarshalJSON encodes one block as an object, else an array, for
// encoding/json.
func (s SamplingContent) MarshalJSON() ([]byte, error) { return jsonMarshal(s) }

// UnmarshalJSON decodes a block or an array of them, for encoding/json.
func (s *SamplingContent) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, s) }

// MarshalJSON encodes the contents as TextResourceContents or
// BlobResourceContents, for encoding/json.
func (r ResourceContents) MarshalJSON() ([]byte, error) { return jsonMarshal(r) }

// UnmarshalJSON decodes TextResourceContents or BlobResourceContents, for
// encoding/json.
func (r *ResourceContents) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, r) }

// MarshalJSON encodes the message, for encoding/json.
func (m PromptMessage) MarshalJSON() ([]byte, error) { return jsonMarshal(m) }

// UnmarshalJSON decodes the message, choosing the Go type of Content from
// its "type", for encoding/json.
func (m *PromptMessage) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, m) }

// MarshalJSON encodes the tool, writing {"type":"object"} for a nil
// InputSchema, for encoding/json.
func (t Tool) MarshalJSON() ([]byte, error) { return jsonMarshal(t) }

// The types below carry a `json:",embed"` member and had no methods: each
// gets MarshalJSONTo and UnmarshalJSONFrom over a method-free copy of
// itself (so that json v2 keeps its fast path and never calls the
// encoding/json methods), and the encoding/json pair over those.
type (
	requestMetaBody      RequestMeta
	capabilityBody       Capability
	taskResultBody       TaskResult
	taskStatusParamsBody TaskStatusParams
)

// MarshalJSONTo encodes the _meta object, Other's keys among the reserved ones.
func (m RequestMeta) MarshalJSONTo(enc *jsontext.Encoder) error {
	return jsonv2.MarshalEncode(enc, (*requestMetaBody)(&m))
}

// MarshalJSON encodes the _meta object, for encoding/json.
func (m RequestMeta) MarshalJSON() ([]byte, error) { return jsonMarshal(m) }

// UnmarshalJSON decodes a _meta object, for encoding/json.
func (m *RequestMeta) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, m) }

// MarshalJSONTo encodes the capability object with its settings as members.
func (c Capability) MarshalJSONTo(enc *jsontext.Encoder) error {
	return jsonv2.MarshalEncode(enc, (*capabilityBody)(&c))
}

// UnmarshalJSONFrom decodes a capability object, its members into Settings.
func (c *Capability) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return jsonv2.UnmarshalDecode(dec, (*capabilityBody)(c))
}

// MarshalJSON encodes the capability object, for encoding/json.
func (c Capability) MarshalJSON() ([]byte, error) { return jsonMarshal(c) }

// UnmarshalJSON decodes a capability object, for encoding/json.
func (c *Capability) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, c) }

// MarshalJSONTo encodes the result with the task's members inline.
func (r TaskResult) MarshalJSONTo(enc *jsontext.Encoder) error {
	return jsonv2.MarshalEncode(enc, (*taskResultBody)(&r))
}

// UnmarshalJSONFrom decodes a result with the task's members inline.
func (r *TaskResult) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return jsonv2.UnmarshalDecode(dec, (*taskResultBody)(r))
}

// MarshalJSON encodes the result with the task's members inline, for
// encoding/json.
func (r TaskResult) MarshalJSON() ([]byte, error) { return jsonMarshal(r) }

// UnmarshalJSON decodes a result with the task's members inline, for
// encoding/json.
func (r *TaskResult) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, r) }

// MarshalJSONTo encodes the params with the task's members inline.
func (p TaskStatusParams) MarshalJSONTo(enc *jsontext.Encoder) error {
	return jsonv2.MarshalEncode(enc, (*taskStatusParamsBody)(&p))
}

// UnmarshalJSONFrom decodes params with the task's members inline.
func (p *TaskStatusParams) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return jsonv2.UnmarshalDecode(dec, (*taskStatusParamsBody)(p))
}

// MarshalJSON encodes the params with the task's members inline, for
// encoding/json.
func (p TaskStatusParams) MarshalJSON() ([]byte, error) { return jsonMarshal(p) }

// UnmarshalJSON decodes params with the task's members inline, for
// encoding/json.
func (p *TaskStatusParams) UnmarshalJSON(b []byte) error { return jsonUnmarshal(b, p) }
