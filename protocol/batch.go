package protocol

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// BatchVersion is the only protocol revision with JSON-RPC batches:
// 2025-03-26 requires receivers to accept them; the revisions before it
// did not have them and the ones after it removed them.
const BatchVersion = Version20250326

// Batch is a JSON-RPC batch (JSON-RPC 2.0 §6): messages sent together as
// one JSON array. An incoming batch of requests and notifications is
// answered with one batch holding a response for each request, or with
// nothing when it has no requests. Batches exist only in protocol revision
// BatchVersion (see BatchError).
//
// DecodeMessage returns a *Batch for a JSON array: Messages holds its
// valid elements, in order, and Invalid the elements that are not valid
// messages, each as the error to answer it with. A Batch that is written
// must have no Invalid elements; AppendMessage writes an empty Batch as
// nothing at all (JSON-RPC never sends an empty array), so transports
// write nothing for it.
type Batch struct {
	Messages []Message
	Invalid  []*DecodeError
}

func (*Batch) isMessage() {}

// BatchError is the error that answers a batch received on a session that
// speaks version ("" before the initialize handshake), which is not
// BatchVersion.
func BatchError(version string) *Error {
	if version == "" {
		return NewError(CodeInvalidRequest, "Invalid Request: a JSON-RPC batch cannot come before initialize "+
			"(batches are only supported on protocol revision "+BatchVersion+", and initialize must be sent on its own)")
	}
	return NewError(CodeInvalidRequest, "Invalid Request: JSON-RPC batches are only supported on protocol revision "+
		BatchVersion+", not on "+version)
}

// batchDecodeOptions read the array itself: duplicate names inside an
// element make that element invalid (DecodeMessage checks each), not the
// whole batch.
var batchDecodeOptions = jsontext.AllowDuplicateNames(true)

// isArray reports whether data, after leading white space, starts a JSON
// array.
func isArray(data []byte) bool {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c == '['
	}
	return false
}

// decodeBatch decodes a JSON array of messages. Invalid JSON anywhere
// fails the whole batch with a parse error, and an empty array is an
// invalid request; an element that is not a valid message is kept in
// Invalid.
func decodeBatch(data []byte) (Message, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), decodeOptions, batchDecodeOptions)
	if _, err := dec.ReadToken(); err != nil { // '['
		return nil, classify(data, err)
	}
	b := new(Batch)
	for dec.PeekKind() != ']' {
		v, err := dec.ReadValue() // on error, PeekKind was 0
		if err != nil {
			return nil, classify(data, err)
		}
		if v.Kind() != '{' { // nested batches are not messages either
			b.Invalid = append(b.Invalid, &DecodeError{Err: NewError(CodeInvalidRequest, "Invalid Request: a message must be a JSON object")})
			continue
		}
		m, err := DecodeMessage(v)
		if err != nil {
			de, ok := errors.AsType[*DecodeError](err)
			if !ok {
				de = &DecodeError{Err: asError(err)}
			}
			b.Invalid = append(b.Invalid, de)
			continue
		}
		b.Messages = append(b.Messages, m)
	}
	if _, err := dec.ReadToken(); err != nil { // ']'
		return nil, classify(data, err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, &DecodeError{Err: NewError(CodeParseError, "Parse error: invalid JSON")}
	}
	if len(b.Messages) == 0 && len(b.Invalid) == 0 {
		return nil, &DecodeError{Err: NewError(CodeInvalidRequest, "Invalid Request: an empty batch")}
	}
	return b, nil
}

// appendBatch appends the JSON array of b's messages to b; nothing for an
// empty batch.
func appendBatch(dst []byte, b *Batch) ([]byte, error) {
	if len(b.Invalid) > 0 {
		return dst, errors.New("protocol: a batch with invalid elements cannot be encoded")
	}
	if len(b.Messages) == 0 {
		return dst, nil
	}
	n := len(dst)
	for i, m := range b.Messages {
		if _, nested := m.(*Batch); nested {
			return dst[:n], errors.New("protocol: a batch cannot hold a batch")
		}
		if i == 0 {
			dst = append(dst, '[')
		} else {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = AppendMessage(dst, m); err != nil {
			return dst[:n], err
		}
	}
	return append(dst, ']'), nil
}
