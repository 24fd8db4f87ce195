package protocol

import (
	"errors"
	"fmt"
	"strings"
)

// ErrToolFailed is matched, with errors.Is, by the error
// [CallToolResult.Structured] returns for a result with IsError set; the
// error's text carries the tool's message.
var ErrToolFailed = errors.New("protocol: the tool failed")

// Text returns the text of the result's text blocks, joined by newlines: a
// tool's unstructured answer, or its error message when IsError is set.
// Blocks of other kinds are skipped; a result without text gives "".
func (r *CallToolResult) Text() string {
	return contentText(r.Content)
}

// Structured decodes the tool's structured result into v (a pointer), with
// the rules of [Unmarshal] (member names match exactly; unknown members
// are ignored). A result without structured content — from a tool that
// declares no output schema, or from a server on a revision before
// 2025-06-18 — has its text decoded instead, as such tools send their
// result as JSON text. A result with IsError set decodes nothing and gives
// an error matching [ErrToolFailed] that carries the tool's message.
func (r *CallToolResult) Structured(v any) error {
	if r.IsError {
		return fmt.Errorf("%w: %s", ErrToolFailed, r.Text())
	}
	if len(r.StructuredContent) > 0 {
		if err := Unmarshal(r.StructuredContent, v); err != nil {
			return fmt.Errorf("protocol: decoding the structured content: %w", err)
		}
		return nil
	}
	if err := Unmarshal([]byte(r.Text()), v); err != nil {
		return fmt.Errorf("protocol: the result has no structured content, and decoding its text failed: %w", err)
	}
	return nil
}

// Text returns the message's text: that of a text block, or of an
// embedded text resource; "" for other blocks (images, audio, links,
// binary resources).
func (m *PromptMessage) Text() string {
	return blockText(m.Content)
}

// Text returns the text of the prompt's messages, joined by newlines
// (messages without text are skipped), for a caller that only wants the
// words; Messages keeps the roles.
func (r *GetPromptResult) Text() string {
	var b strings.Builder
	for i := range r.Messages {
		if t := r.Messages[i].Text(); t != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t)
		}
	}
	return b.String()
}

// Text returns the text of the resource's text contents, joined by
// newlines; binary contents (Blob set) are skipped.
func (r *ReadResourceResult) Text() string {
	var b strings.Builder
	first := true
	for i := range r.Contents {
		if r.Contents[i].Blob != nil {
			continue
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		b.WriteString(r.Contents[i].Text)
	}
	return b.String()
}

// contentText joins the text of the text blocks in cs with newlines.
func contentText(cs []Content) string {
	var b strings.Builder
	first := true
	for _, c := range cs {
		t, ok := c.(*TextContent)
		if !ok {
			continue
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		b.WriteString(t.Text)
	}
	return b.String()
}

// blockText returns the text of a text block or an embedded text resource.
func blockText(c Content) string {
	switch c := c.(type) {
	case *TextContent:
		return c.Text
	case *EmbeddedResource:
		if c.Resource.Blob == nil {
			return c.Resource.Text
		}
	}
	return ""
}
