package protocol

import (
	"github.com/go-json-experiment/json/jsontext"
)

// Hand-written encodings of the results every server sends most often.
// Each applies only to values of a common shape and writes byte for byte
// what json.Marshal writes for them (the tests compare the two); for any
// other value it declines and the caller falls back to json.Marshal.

// appendCallToolResult appends the encoding of r when r has no _meta, only
// text blocks without annotations or _meta, and a structured content that
// json.Marshal would copy unchanged (compact, without escapes). ok is false
// when r has another shape; b is then unspecified.
func appendCallToolResult(b []byte, r *CallToolResult) (_ []byte, ok bool) {
	if r.Meta != nil || (r.StructuredContent != nil && !copiedVerbatim(jsontext.Value(r.StructuredContent))) {
		return b, false
	}
	b = append(b, '{')
	if r.ResultType != "" {
		b = append(b, `"resultType":`...)
		var err error
		if b, err = jsontext.AppendQuote(b, r.ResultType); err != nil {
			return b, false
		}
		b = append(b, ',')
	}
	b = append(b, `"content":[`...)
	for i, c := range r.Content {
		t, isText := c.(*TextContent)
		if !isText || t == nil || t.Annotations != nil || t.Meta != nil {
			return b, false
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"text","text":`...)
		var err error
		if b, err = jsontext.AppendQuote(b, t.Text); err != nil {
			return b, false // invalid UTF-8: json.Marshal reports it
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if r.StructuredContent != nil {
		b = append(b, `,"structuredContent":`...)
		b = append(b, r.StructuredContent...)
	}
	if r.IsError {
		b = append(b, `,"isError":true`...)
	}
	return append(b, '}'), true
}

// copiedVerbatim reports whether json.Marshal writes the raw value v as it
// is: v is valid (no duplicate names, valid UTF-8) and compact, and its
// strings have no escapes (which json.Marshal would rewrite to their
// shortest form).
func copiedVerbatim(v jsontext.Value) bool {
	if len(v) == 0 {
		return false
	}
	in := false
	for _, c := range v {
		switch {
		case c == '"':
			in = !in
		case c == '\\':
			return false
		case !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return false
		}
	}
	return flatValid(v) || v.IsValid()
}

// callToolResultSize estimates the encoded size of r, to size its buffer.
func callToolResultSize(r *CallToolResult) int {
	n := 48 + len(r.StructuredContent) + len(r.ResultType)
	for _, c := range r.Content {
		if t, ok := c.(*TextContent); ok && t != nil {
			n += 32 + len(t.Text) + len(t.Text)/8
		}
	}
	return n
}
