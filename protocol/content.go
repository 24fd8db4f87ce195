package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Content is one block of content in a tool result, a prompt message or a
// sampling message. The set is closed: it is implemented only by
// *TextContent, *ImageContent, *AudioContent, *ResourceLink,
// *EmbeddedResource, *ToolUseContent and *ToolResultContent.
//
// Each block encodes with its "type" discriminator. Decoding into a
// [ContentList] or [SamplingContent] picks the type from the discriminator,
// wherever it stands among the members, reading the block once; an unknown
// type is an error. A member of another type is ignored if it has the JSON
// kind that type gives it (a "size" must be a number even on a text block).
type Content interface {
	isContent()
}

// Content type discriminators.
const (
	ContentTypeText         = "text"
	ContentTypeImage        = "image"
	ContentTypeAudio        = "audio"         // since 2025-03-26
	ContentTypeResourceLink = "resource_link" // since 2025-06-18
	ContentTypeResource     = "resource"
	ContentTypeToolUse      = "tool_use"    // since 2025-11-25, sampling only
	ContentTypeToolResult   = "tool_result" // since 2025-11-25, sampling only
)

// Role is the sender or recipient of a message: RoleUser or RoleAssistant.
type Role string

// Roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Annotations tell the client how to use or show an object.
type Annotations struct {
	// Audience lists who the data is meant for.
	Audience []Role `json:"audience,omitzero"`
	// Priority is the importance from 0 (optional) to 1 (effectively required).
	Priority *float64 `json:"priority,omitzero"`
	// LastModified is an ISO 8601 timestamp such as "2025-01-12T15:00:58Z"
	// (since 2025-06-18).
	LastModified string `json:"lastModified,omitzero"`
}

// TextContent is text for or from a model.
type TextContent struct {
	// Text is the text.
	Text string `json:"text"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitzero"`
	// Meta is the object's _meta (since 2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
}

// ImageContent is an image for or from a model.
type ImageContent struct {
	// Data is the image; it travels as standard base64 with padding.
	Data []byte `json:"data"`
	// MIMEType is the image's MIME type, such as "image/png".
	MIMEType string `json:"mimeType"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitzero"`
	// Meta is the object's _meta (since 2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
}

// AudioContent is audio for or from a model (since 2025-03-26).
type AudioContent struct {
	// Data is the audio; it travels as standard base64 with padding.
	Data []byte `json:"data"`
	// MIMEType is the audio's MIME type, such as "audio/wav".
	MIMEType string `json:"mimeType"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitzero"`
	// Meta is the object's _meta (since 2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
}

// ResourceLink points to a resource the server can read (since 2025-06-18).
// It has the fields of a [Resource].
type ResourceLink struct {
	// URI is the resource's URI.
	URI string `json:"uri"`
	// Name is the resource's programmatic name.
	Name string `json:"name"`
	// Title is a human-readable display name.
	Title string `json:"title,omitzero"`
	// Description says what the resource represents.
	Description string `json:"description,omitzero"`
	// MIMEType is the resource's MIME type, if known.
	MIMEType string `json:"mimeType,omitzero"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitzero"`
	// Size is the raw size in bytes, if known.
	Size *int64 `json:"size,omitzero"`
	// Icons can be shown in a user interface (since 2025-11-25).
	Icons []Icon `json:"icons,omitzero"`
	// Meta is the object's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// EmbeddedResource is the contents of a resource embedded in a prompt or a
// tool result.
type EmbeddedResource struct {
	// Resource holds the contents.
	Resource ResourceContents `json:"resource"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitzero"`
	// Meta is the object's _meta (since 2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
}

// ToolUseContent is a model's request to call a tool, in sampling
// (since 2025-11-25; deprecated with sampling in 2026-07-28).
type ToolUseContent struct {
	// ID identifies this tool use; the matching result carries it.
	ID string `json:"id"`
	// Name is the tool to call.
	Name string `json:"name"`
	// Input holds the arguments, a JSON object.
	Input json.RawMessage `json:"input"`
	// Meta is the object's _meta; clients should keep it when replaying the message.
	Meta Meta `json:"_meta,omitzero"`
}

// ToolResultContent is the result of a tool use given back to the model, in
// sampling (since 2025-11-25; deprecated with sampling in 2026-07-28).
type ToolResultContent struct {
	// ToolUseID is the ID of the [ToolUseContent] answered.
	ToolUseID string `json:"toolUseId"`
	// Content is the unstructured result; it is always encoded, [] when empty.
	Content ContentList `json:"content"`
	// StructuredContent is the structured result: a JSON object in
	// 2025-11-25, any JSON value in 2026-07-28.
	StructuredContent json.RawMessage `json:"structuredContent,omitzero"`
	// IsError reports that the tool use failed.
	IsError bool `json:"isError,omitzero"`
	// Meta is the object's _meta; clients should keep it when replaying the message.
	Meta Meta `json:"_meta,omitzero"`
}

func (*TextContent) isContent()       {}
func (*ImageContent) isContent()      {}
func (*AudioContent) isContent()      {}
func (*ResourceLink) isContent()      {}
func (*EmbeddedResource) isContent()  {}
func (*ToolUseContent) isContent()    {}
func (*ToolResultContent) isContent() {}

// Method-free copies of the content types, encoded inside a struct that adds
// the discriminator.
type (
	textBody         TextContent
	imageBody        ImageContent
	audioBody        AudioContent
	resourceLinkBody ResourceLink
	embeddedBody     EmbeddedResource
	toolUseBody      ToolUseContent
	toolResultBody   ToolResultContent
)

// marshalTyped writes b's members after "type". The wrapper holds b by value
// and is passed by pointer: one allocation per block (a value would be
// copied again by MarshalEncode, and a pointer to b moves b to the heap).
func marshalTyped[B any](enc *jsontext.Encoder, typ string, b B) error {
	return jsonv2.MarshalEncode(enc, &struct {
		Type string `json:"type"`
		Body B      `json:",embed"`
	}{typ, b})
}

func unmarshalTyped[B any](dec *jsontext.Decoder, typ string, b *B) error {
	w := struct {
		Type string `json:"type"`
		Body *B     `json:",embed"`
	}{Body: b}
	if err := jsonv2.UnmarshalDecode(dec, &w); err != nil {
		return err
	}
	if w.Type != typ {
		return fmt.Errorf("protocol: content type is %q, want %q", w.Type, typ)
	}
	return nil
}

// MarshalJSONTo encodes the block with "type":"text".
func (c TextContent) MarshalJSONTo(enc *jsontext.Encoder) error {
	return marshalTyped(enc, ContentTypeText, textBody(c))
}

// UnmarshalJSONFrom decodes a block whose type must be "text".
func (c *TextContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return unmarshalTyped(dec, ContentTypeText, (*textBody)(c))
}

// MarshalJSONTo encodes the block with "type":"image".
func (c ImageContent) MarshalJSONTo(enc *jsontext.Encoder) error {
	return marshalTyped(enc, ContentTypeImage, imageBody(c))
}

// UnmarshalJSONFrom decodes a block whose type must be "image".
func (c *ImageContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return unmarshalTyped(dec, ContentTypeImage, (*imageBody)(c))
}

// MarshalJSONTo encodes the block with "type":"audio".
func (c AudioContent) MarshalJSONTo(enc *jsontext.Encoder) error {
	return marshalTyped(enc, ContentTypeAudio, audioBody(c))
}

// UnmarshalJSONFrom decodes a block whose type must be "audio".
func (c *AudioContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return unmarshalTyped(dec, ContentTypeAudio, (*audioBody)(c))
}

// MarshalJSONTo encodes the block with "type":"resource_link".
func (c ResourceLink) MarshalJSONTo(enc *jsontext.Encoder) error {
	return marshalTyped(enc, ContentTypeResourceLink, resourceLinkBody(c))
}

// UnmarshalJSONFrom decodes a block whose type must be "resource_link".
func (c *ResourceLink) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return unmarshalTyped(dec, ContentTypeResourceLink, (*resourceLinkBody)(c))
}

// MarshalJSONTo encodes the block with "type":"resource".
func (c EmbeddedResource) MarshalJSONTo(enc *jsontext.Encoder) error {
	return marshalTyped(enc, ContentTypeResource, embeddedBody(c))
}

// UnmarshalJSONFrom decodes a block whose type must be "resource".
func (c *EmbeddedResource) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return unmarshalTyped(dec, ContentTypeResource, (*embeddedBody)(c))
}

// MarshalJSONTo encodes the block with "type":"tool_use". A nil Input
// encodes as {}.
func (c ToolUseContent) MarshalJSONTo(enc *jsontext.Encoder) error {
	if len(c.Input) == 0 {
		c.Input = emptyObject
	}
	return marshalTyped(enc, ContentTypeToolUse, toolUseBody(c))
}

// UnmarshalJSONFrom decodes a block whose type must be "tool_use".
func (c *ToolUseContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return unmarshalTyped(dec, ContentTypeToolUse, (*toolUseBody)(c))
}

// MarshalJSONTo encodes the block with "type":"tool_result".
func (c ToolResultContent) MarshalJSONTo(enc *jsontext.Encoder) error {
	return marshalTyped(enc, ContentTypeToolResult, toolResultBody(c))
}

// UnmarshalJSONFrom decodes a block whose type must be "tool_result".
func (c *ToolResultContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return unmarshalTyped(dec, ContentTypeToolResult, (*toolResultBody)(c))
}

var emptyObject = json.RawMessage("{}")

// DecodeContent decodes one content block, choosing its Go type from its
// "type" member.
func DecodeContent(data []byte) (Content, error) {
	var c oneContent
	if err := jsonUnmarshal(data, &c); err != nil {
		return nil, err
	}
	return c.c, nil
}

// oneContent decodes one content block.
type oneContent struct{ c Content }

func (c *oneContent) UnmarshalJSONFrom(dec *jsontext.Decoder) (err error) {
	c.c, err = readContent(dec)
	return err
}

// contentType is a block's "type", which must be a JSON string.
type contentType string

func (t *contentType) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '"' {
		return errors.New(`protocol: content "type" must be a string`)
	}
	*t = contentType(tok.String())
	return nil
}

// contentWire holds the members of every content type by name, so that a
// block is read once, whatever the place of its "type"; the type then
// says which of them the block keeps. (A member named like one of another
// type must therefore have that member's JSON kind.)
type contentWire struct {
	Type              contentType      `json:"type"`
	Text              string           `json:"text"`
	Data              []byte           `json:"data"`
	MIMEType          string           `json:"mimeType"`
	URI               string           `json:"uri"`
	Name              string           `json:"name"`
	Title             string           `json:"title"`
	Description       string           `json:"description"`
	Size              *int64           `json:"size"`
	Icons             []Icon           `json:"icons"`
	Resource          ResourceContents `json:"resource"`
	ID                string           `json:"id"`
	Input             json.RawMessage  `json:"input"`
	ToolUseID         string           `json:"toolUseId"`
	Content           ContentList      `json:"content"`
	StructuredContent json.RawMessage  `json:"structuredContent"`
	IsError           bool             `json:"isError"`
	Annotations       *Annotations     `json:"annotations"`
	Meta              Meta             `json:"_meta"`
}

// contentWires holds zeroed contentWires for readContent.
var contentWires = sync.Pool{New: func() any { return new(contentWire) }}

// readContent decodes the next value of dec, a content block, in one pass.
func readContent(dec *jsontext.Decoder) (Content, error) {
	if dec.PeekKind() != '{' {
		_ = dec.SkipValue()
		return nil, errors.New("protocol: a content block must be a JSON object")
	}
	w := contentWires.Get().(*contentWire)
	defer func() {
		*w = contentWire{} // the block keeps what it took; drop the rest
		contentWires.Put(w)
	}()
	if err := jsonv2.UnmarshalDecode(dec, w); err != nil {
		return nil, err
	}
	switch w.Type {
	case ContentTypeText:
		return &TextContent{Text: w.Text, Annotations: w.Annotations, Meta: w.Meta}, nil
	case ContentTypeImage:
		return &ImageContent{Data: w.Data, MIMEType: w.MIMEType, Annotations: w.Annotations, Meta: w.Meta}, nil
	case ContentTypeAudio:
		return &AudioContent{Data: w.Data, MIMEType: w.MIMEType, Annotations: w.Annotations, Meta: w.Meta}, nil
	case ContentTypeResourceLink:
		return &ResourceLink{URI: w.URI, Name: w.Name, Title: w.Title, Description: w.Description, MIMEType: w.MIMEType,
			Annotations: w.Annotations, Size: w.Size, Icons: w.Icons, Meta: w.Meta}, nil
	case ContentTypeResource:
		return &EmbeddedResource{Resource: w.Resource, Annotations: w.Annotations, Meta: w.Meta}, nil
	case ContentTypeToolUse:
		return &ToolUseContent{ID: w.ID, Name: w.Name, Input: w.Input, Meta: w.Meta}, nil
	case ContentTypeToolResult:
		return &ToolResultContent{ToolUseID: w.ToolUseID, Content: w.Content, StructuredContent: w.StructuredContent,
			IsError: w.IsError, Meta: w.Meta}, nil
	case "":
		return nil, errors.New(`protocol: content block without a "type"`)
	default:
		return nil, fmt.Errorf("protocol: unknown content type %q", string(w.Type))
	}
}

func writeContent(enc *jsontext.Encoder, c Content) error {
	if c == nil {
		return errors.New("protocol: nil content block")
	}
	return jsonv2.MarshalEncode(enc, c)
}

// ContentList is a list of content blocks. It encodes as a JSON array
// ([] when empty or nil) and decodes each element by its "type".
type ContentList []Content

// MarshalJSONTo encodes the list as an array.
func (l ContentList) MarshalJSONTo(enc *jsontext.Encoder) error {
	if err := enc.WriteToken(jsontext.BeginArray); err != nil {
		return err
	}
	for _, c := range l {
		if err := writeContent(enc, c); err != nil {
			return err
		}
	}
	return enc.WriteToken(jsontext.EndArray)
}

// UnmarshalJSONFrom decodes an array of content blocks.
func (l *ContentList) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() != '[' {
		_ = dec.SkipValue()
		return errors.New("protocol: content must be an array")
	}
	return readContentArray(dec, (*[]Content)(l))
}

func readContentArray(dec *jsontext.Decoder, l *[]Content) error {
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	out := make([]Content, 0, 1)
	for dec.PeekKind() != ']' {
		c, err := readContent(dec)
		if err != nil {
			return err
		}
		out = append(out, c)
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	*l = out
	return nil
}

// SamplingContent is the content of a sampling message: one block or
// several. It encodes a single block as a JSON object (the only form before
// 2025-11-25) and any other number as an array; it decodes either form.
type SamplingContent []Content

// MarshalJSONTo encodes one block as an object, else an array.
func (s SamplingContent) MarshalJSONTo(enc *jsontext.Encoder) error {
	if len(s) == 1 {
		return writeContent(enc, s[0])
	}
	return ContentList(s).MarshalJSONTo(enc)
}

// UnmarshalJSONFrom decodes a content block or an array of them.
func (s *SamplingContent) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case '{':
		c, err := readContent(dec)
		if err != nil {
			return err
		}
		*s = SamplingContent{c}
		return nil
	case '[':
		return readContentArray(dec, (*[]Content)(s))
	default:
		_ = dec.SkipValue()
		return errors.New("protocol: sampling content must be an object or an array")
	}
}

// ResourceContents is the contents of a resource: text, or binary data when
// Blob is non-nil.
//
// It encodes "blob" (standard base64 with padding) when Blob is non-nil and "text" otherwise
// (always present, even when empty). Decoding accepts either; a value with
// neither is an error.
type ResourceContents struct {
	// URI is the resource's URI.
	URI string
	// MIMEType is the resource's MIME type, if known.
	MIMEType string
	// Text is the text of a text resource.
	Text string
	// Blob is the data of a binary resource; non-nil selects the blob form.
	Blob []byte
	// Meta is the object's _meta (since 2025-06-18).
	Meta Meta
}

type resourceContentsWire struct {
	URI      string  `json:"uri"`
	MIMEType string  `json:"mimeType,omitzero"`
	Text     *string `json:"text,omitzero"`
	Blob     []byte  `json:"blob,omitzero"`
	Meta     Meta    `json:"_meta,omitzero"`
}

// MarshalJSONTo encodes the contents as TextResourceContents or
// BlobResourceContents.
func (r ResourceContents) MarshalJSONTo(enc *jsontext.Encoder) error {
	w := resourceContentsWire{URI: r.URI, MIMEType: r.MIMEType, Meta: r.Meta}
	if r.Blob != nil {
		w.Blob = r.Blob
	} else {
		w.Text = &r.Text
	}
	return jsonv2.MarshalEncode(enc, &w)
}

// UnmarshalJSONFrom decodes TextResourceContents or BlobResourceContents.
func (r *ResourceContents) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var w resourceContentsWire
	if err := jsonv2.UnmarshalDecode(dec, &w); err != nil {
		return err
	}
	if w.Text == nil && w.Blob == nil {
		return errors.New(`protocol: resource contents need "text" or "blob"`)
	}
	*r = ResourceContents{URI: w.URI, MIMEType: w.MIMEType, Blob: w.Blob, Meta: w.Meta}
	if w.Text != nil {
		r.Text = *w.Text
	}
	return nil
}
