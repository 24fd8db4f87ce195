package fastmcp

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// ToolResult is a complete tools/call result; a tool that returns one has
// it sent as is. A client reads one with res.Text() and res.Structured(&v)
// (methods of protocol.CallToolResult, which go doc lists there).
type ToolResult = protocol.CallToolResult

// Content is one block of a tool result or prompt message: *TextContent,
// *ImageContent, *AudioContent, *ResourceLink or *EmbeddedResource.
type Content = protocol.Content

// Content block types, for building results by hand.
type (
	TextContent      = protocol.TextContent
	ImageContent     = protocol.ImageContent
	AudioContent     = protocol.AudioContent
	ResourceLink     = protocol.ResourceLink
	EmbeddedResource = protocol.EmbeddedResource
	ResourceContents = protocol.ResourceContents
)

// Text returns a text content block.
func Text(text string) *TextContent { return &TextContent{Text: text} }

// Image returns an image content block; data travels base64-encoded.
func Image(data []byte, mimeType string) *ImageContent {
	return &ImageContent{Data: data, MIMEType: mimeType}
}

// Audio returns an audio content block; data travels base64-encoded.
func Audio(data []byte, mimeType string) *AudioContent {
	return &AudioContent{Data: data, MIMEType: mimeType}
}

// Link returns a resource link: a pointer to a resource the client can read.
func Link(uri, name string) *ResourceLink { return &ResourceLink{URI: uri, Name: name} }

// EmbeddedText returns an embedded text resource.
func EmbeddedText(uri, mimeType, text string) *EmbeddedResource {
	return &EmbeddedResource{Resource: ResourceContents{URI: uri, MIMEType: mimeType, Text: text}}
}

// EmbeddedBlob returns an embedded binary resource; data travels
// base64-encoded.
func EmbeddedBlob(uri, mimeType string, data []byte) *EmbeddedResource {
	if data == nil {
		data = []byte{}
	}
	return &EmbeddedResource{Resource: ResourceContents{URI: uri, MIMEType: mimeType, Blob: data}}
}

// resultKind says how a tool's result type becomes a CallToolResult; it is
// decided once at registration.
type resultKind uint8

const (
	resultNone       resultKind = iota // func(...) error: empty content
	resultText                         // string: one text block
	resultContent                      // a Content: one block
	resultContents                     // []Content: as given
	resultTool                         // *ToolResult: as given
	resultStructured                   // JSON object: structuredContent + its JSON as text
	resultWrapped                      // other JSON value: structuredContent {"result": v}
	resultDynamic                      // interface type: decided per call
)

var (
	contentType     = reflect.TypeFor[Content]()
	contentListType = reflect.TypeFor[protocol.ContentList]()
	contentsType    = reflect.TypeFor[[]Content]()
	toolResultType  = reflect.TypeFor[*ToolResult]()
	toolResultValue = reflect.TypeFor[ToolResult]()
	stringType      = reflect.TypeFor[string]()
)

// classifyResult decides how results of type t are sent.
func classifyResult(t reflect.Type) resultKind {
	switch {
	case t == nil:
		return resultNone
	case t == toolResultType || t == toolResultValue:
		return resultTool
	case t == contentsType || t == contentListType:
		return resultContents
	case t == contentType || (t.Kind() != reflect.Interface && t.Implements(contentType)):
		return resultContent
	case t.Kind() == reflect.String && t == stringType:
		return resultText
	case t.Kind() == reflect.Interface:
		return resultDynamic
	case isObjectType(t):
		return resultStructured
	default:
		return resultWrapped
	}
}

// isObjectType reports whether values of t encode as JSON objects.
func isObjectType(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct || (t.Kind() == reflect.Map && t.Key().Kind() == reflect.String)
}

// toolResult turns a handler's result into a CallToolResult.
func toolResult(kind resultKind, v reflect.Value) (*ToolResult, error) {
	switch kind {
	case resultNone:
		return &ToolResult{Content: protocol.ContentList{}}, nil
	case resultText:
		w := new(textResult)
		w.text.Text = v.String()
		w.block[0] = &w.text
		w.res.Content = w.block[:]
		return &w.res, nil
	case resultTool:
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return &ToolResult{Content: protocol.ContentList{}}, nil
			}
			r := v.Interface().(*ToolResult)
			if r.Content == nil {
				c := *r
				c.Content = protocol.ContentList{}
				return &c, nil
			}
			return r, nil
		}
		r := v.Interface().(ToolResult)
		return &r, nil
	case resultContent:
		if isNilValue(v) {
			return &ToolResult{Content: protocol.ContentList{}}, nil
		}
		return &ToolResult{Content: protocol.ContentList{v.Interface().(Content)}}, nil
	case resultContents:
		var list protocol.ContentList
		switch c := v.Interface().(type) {
		case []Content:
			list = c
		case protocol.ContentList:
			list = c
		}
		if list == nil {
			list = protocol.ContentList{}
		}
		return &ToolResult{Content: list}, nil
	case resultDynamic:
		if isNilValue(v) {
			return &ToolResult{Content: protocol.ContentList{}}, nil
		}
		v = v.Elem()
		if v.Kind() == reflect.Interface {
			v = v.Elem()
		}
		k := classifyResult(v.Type())
		if k == resultDynamic {
			k = resultWrapped
		}
		return toolResult(k, v)
	case resultStructured, resultWrapped:
		if isNilValue(v) {
			return &ToolResult{Content: protocol.ContentList{}}, nil
		}
		b, err := protocol.Marshal(v.Interface())
		if err != nil {
			return nil, fmt.Errorf("fastmcp: encoding the tool's result: %w", err)
		}
		if kind == resultWrapped {
			return wrappedResult(b), nil
		}
		return &ToolResult{Content: protocol.ContentList{Text(string(b))}, StructuredContent: b}, nil
	}
	return nil, errors.New("fastmcp: unknown result kind")
}

// textResult is a result of one text block, allocated at once.
type textResult struct {
	res   ToolResult
	block [1]Content
	text  TextContent
}

// wrappedResult is the result for a value whose JSON, b, is not an object:
// the JSON as text, and {"result": v} as structured content.
func wrappedResult(b []byte) *ToolResult {
	// One allocation for the result, its one block and (when small) the
	// structured content.
	w := new(struct {
		textResult
		buf [48]byte
	})
	w.text.Text = string(b)
	w.block[0] = &w.text
	structured := w.buf[:0:len(w.buf)]
	if len(b)+11 > len(w.buf) {
		structured = make([]byte, 0, len(b)+11)
	}
	structured = append(append(append(structured, `{"result":`...), b...), '}')
	w.res = ToolResult{Content: w.block[:], StructuredContent: structured}
	return &w.res
}

func isNilValue(v reflect.Value) bool {
	if !v.IsValid() {
		return true
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
		return v.IsNil()
	}
	return false
}

// errorResult is the isError result for a failed tool.
func errorResult(text string) *ToolResult {
	return &ToolResult{Content: protocol.ContentList{Text(text)}, IsError: true}
}
