package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Message is a JSON-RPC 2.0 message: a *Request (a call or a notification),
// a *Response, or a *Batch of them (protocol revision 2025-03-26 only). The
// set is closed: no other type implements Message.
type Message interface {
	isMessage()
}

// Request is a JSON-RPC request. With a valid ID it is a call that expects a
// response; with the zero ID it is a notification.
//
// Params holds the raw JSON of the params member (nil when absent or null)
// and stays undecoded until a handler knows its type. Receivers must not
// modify it.
type Request struct {
	ID     ID
	Method string
	Params json.RawMessage

	// Extra carries what the transport knows about an incoming request
	// beyond the message itself: the HTTP transports set a
	// *transport.HTTPRequestInfo, which handlers read, typed, as
	// session.Request.HTTP (or fastmcp's Context.HTTPRequest). It is never
	// encoded; outgoing requests leave it nil. It is transport plumbing,
	// untyped only because this package sits below the transports.
	Extra any

	// meta caches the parsed _meta of Params (see [Request.Meta]).
	meta *parsedMeta
}

// IsCall reports whether the request expects a response.
func (r *Request) IsCall() bool { return r.ID.IsValid() }

// Response is a JSON-RPC response: exactly one of Result and Error is set.
// A Response with the zero ID encodes its id as null.
type Response struct {
	ID     ID
	Result json.RawMessage
	Error  *Error
}

func (*Request) isMessage()  {}
func (*Response) isMessage() {}

// DecodeError reports a message that could not be decoded. ID is the
// message's id when it could be read (so an error response can carry it), and
// Err is the JSON-RPC error to answer with: CodeParseError for invalid JSON
// (including invalid UTF-8), CodeInvalidRequest for valid JSON that is not a
// JSON-RPC 2.0 message.
//
// A transport that could not read a message whole (over its size limit)
// sets Cause (such as transport.ErrMessageTooLarge) and, when the message
// had no "method" member, NotRequest: such a message was a response, which
// is not answered; a client fails the call whose id it carries instead.
type DecodeError struct {
	ID  ID
	Err *Error
	// Cause is the Go error behind Err, when there is one.
	Cause error
	// NotRequest reports that the message is known to be a response (it
	// has no "method" member).
	NotRequest bool
}

func (e *DecodeError) Error() string { return e.Err.Message }

// Unwrap returns Err and, when set, Cause.
func (e *DecodeError) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Err, e.Cause}
	}
	return []error{e.Err}
}

// Response returns the error response to send for the bad message. A bad
// message is answered even when it looks like a notification: JSON-RPC 2.0
// answers an invalid request with an error, with a null id when the id could
// not be read.
func (e *DecodeError) Response() *Response { return &Response{ID: e.ID, Error: e.Err} }

// wireMessage is the envelope as read: every member is kept raw so that
// each kind of problem can be classified precisely. The values alias the
// input; what a message keeps is copied.
type wireMessage struct {
	JSONRPC, ID, Method, Params, Result, Error jsontext.Value
}

// envelopeReader reads the envelope of one message. Reading from a
// bytes.Buffer, the decoder parses the input in place.
type envelopeReader struct {
	buf bytes.Buffer
	dec jsontext.Decoder
}

var envelopeReaders = sync.Pool{New: func() any { return new(envelopeReader) }}

var errTrailingData = errors.New("protocol: data after the message")

// readEnvelope reads data, which must hold exactly one JSON object, with the
// wire rules (valid UTF-8, no duplicate names at any depth), and returns its
// top-level members. Names match exactly, after unescaping; other members
// are checked and skipped.
func readEnvelope(data []byte) (wireMessage, error) {
	r := envelopeReaders.Get().(*envelopeReader)
	defer func() {
		r.buf = bytes.Buffer{}
		r.dec.Reset(&r.buf) // let go of data
		envelopeReaders.Put(r)
	}()
	r.buf = *bytes.NewBuffer(data)
	r.dec.Reset(&r.buf, decodeOptions)
	var w wireMessage
	tok, err := r.dec.ReadToken()
	if err != nil {
		return w, err
	}
	if tok.Kind() != '{' {
		return w, errNotObject
	}
	for r.dec.PeekKind() != '}' {
		name, err := r.dec.ReadValue() // a name; on error, PeekKind was 0
		if err != nil {
			return w, err
		}
		var field *jsontext.Value
		switch string(memberName(name)) {
		case "jsonrpc":
			field = &w.JSONRPC
		case "id":
			field = &w.ID
		case "method":
			field = &w.Method
		case "params":
			field = &w.Params
		case "result":
			field = &w.Result
		case "error":
			field = &w.Error
		}
		v, err := r.dec.ReadValue()
		if err != nil {
			return w, err
		}
		if field != nil {
			*field = v
		}
	}
	if _, err := r.dec.ReadToken(); err != nil { // '}'
		return w, err
	}
	switch _, err := r.dec.ReadToken(); err {
	case io.EOF:
		return w, nil
	case nil:
		return w, errTrailingData
	default:
		return w, err
	}
}

// memberName returns the bytes of a quoted member name: those between the
// quotes when there is no escape, else the unescaped name.
func memberName(quoted jsontext.Value) []byte {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return inner
	}
	b, _ := jsontext.AppendUnquote(nil, quoted) // valid: the decoder checked it
	return b
}

// knownMethods interns the method names the protocol defines.
var knownMethods = func() map[string]string {
	m := map[string]string{}
	for _, name := range []string{
		MethodInitialize, MethodPing, MethodServerDiscover, MethodToolsList, MethodToolsCall,
		MethodPromptsList, MethodPromptsGet, MethodResourcesList, MethodResourcesTemplatesList,
		MethodResourcesRead, MethodResourcesSubscribe, MethodResourcesUnsubscribe,
		MethodSubscriptionsListen, MethodCompletionComplete, MethodLoggingSetLevel,
		MethodSamplingCreateMessage, MethodElicitationCreate, MethodRootsList,
		MethodTasksGet, MethodTasksResult, MethodTasksList, MethodTasksCancel, MethodTasksUpdate,
		NotificationInitialized, NotificationCancelled, NotificationProgress, NotificationMessage,
		NotificationResourcesUpdated, NotificationResourcesListChanged, NotificationToolsListChanged,
		NotificationPromptsListChanged, NotificationRootsListChanged, NotificationElicitationComplete,
		NotificationSubscriptionsAcknowledged, NotificationTasksStatus, NotificationTasks,
	} {
		m[name] = name
	}
	return m
}()

// unquoteString returns the string a JSON string value holds. Method names
// the protocol defines are returned without allocating.
func unquoteString(quoted jsontext.Value) (string, error) {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		if m, ok := knownMethods[string(inner)]; ok {
			return m, nil
		}
		return string(inner), nil
	}
	b, err := jsontext.AppendUnquote(nil, quoted)
	return string(b), err
}

// decodeOptions make member names case-sensitive and reject duplicate names
// and invalid UTF-8 (the defaults of json v2, stated for the reader).
var decodeOptions = jsonv2.JoinOptions(
	jsonv2.MatchCaseInsensitiveNames(false),
	jsontext.AllowDuplicateNames(false),
	jsontext.AllowInvalidUTF8(false),
)

func jsonUnmarshal(b []byte, v any) error { return jsonv2.Unmarshal(b, v, decodeOptions) }

func jsonMarshal(v any) ([]byte, error) { return jsonv2.Marshal(v, jsonv2.Deterministic(true)) }

// Unmarshal decodes JSON into v with the wire rules: member names match
// exactly (case-sensitive), duplicate names and invalid UTF-8 are rejected,
// unknown members are ignored.
func Unmarshal(b []byte, v any) error { return jsonUnmarshal(b, v) }

// Marshal encodes v as JSON.
func Marshal(v any) ([]byte, error) { return jsonMarshal(v) }

// DecodeMessage decodes one JSON-RPC message. Member names are matched
// case-sensitively ("Method" is not "method"), duplicate member names are
// rejected, and unknown members are ignored. On failure the error is a
// *DecodeError. The returned message does not keep a reference to data.
//
// A JSON array is a batch: the result is a *Batch (see there), or an error
// when the array is empty or not valid JSON.
func DecodeMessage(data []byte) (Message, error) {
	if isArray(data) {
		return decodeBatch(data)
	}
	w, err := readEnvelope(data)
	if err != nil {
		return nil, classify(data, err)
	}
	var id ID
	if len(w.ID) > 0 && !isNull(w.ID) {
		v, err := ParseID(w.ID)
		if err != nil {
			return nil, &DecodeError{Err: asError(err)}
		}
		id = v
	}
	if string(w.JSONRPC) != `"2.0"` {
		if len(w.JSONRPC) == 0 {
			return nil, invalidRequest(id, `missing "jsonrpc" member`)
		}
		// "2\u002e0" is the same JSON string as "2.0".
		var v string
		if w.JSONRPC.Kind() != '"' || jsonUnmarshal(w.JSONRPC, &v) != nil || v != "2.0" {
			return nil, invalidRequest(id, `"jsonrpc" must be "2.0"`)
		}
	}
	if len(w.Method) > 0 {
		return decodeRequest(&w, id)
	}
	return decodeResponse(&w, id)
}

// invalidRequest is the *DecodeError for a message that is JSON but not a
// valid JSON-RPC message; msg says what is wrong.
func invalidRequest(id ID, msg string) error {
	return &DecodeError{ID: id, Err: NewError(CodeInvalidRequest, "Invalid Request: "+msg)}
}

// decodeRequest builds the request or notification of an envelope that has
// a "method" member; id is its parsed "id" (zero when absent).
func decodeRequest(w *wireMessage, id ID) (Message, error) {
	if w.Method.Kind() != '"' {
		return nil, invalidRequest(id, `"method" must be a string`)
	}
	method, err := unquoteString(w.Method)
	if err != nil {
		return nil, invalidRequest(id, `"method" must be a string`)
	}
	if len(w.ID) > 0 && isNull(w.ID) {
		return nil, invalidRequest(id, "id must be a string or a number")
	}
	if len(w.Result) > 0 || len(w.Error) > 0 {
		return nil, invalidRequest(id, `a request cannot carry "result" or "error"`)
	}
	req := &Request{ID: id, Method: method}
	if len(w.Params) > 0 && !isNull(w.Params) {
		if k := w.Params.Kind(); k != '{' && k != '[' {
			return nil, invalidRequest(id, `"params" must be an object or an array`)
		}
		req.Params = bytes.Clone(w.Params)
	}
	return req, nil
}

// decodeResponse builds the response of an envelope without a "method"
// member; id is its parsed "id".
func decodeResponse(w *wireMessage, id ID) (Message, error) {
	if len(w.ID) == 0 {
		if len(w.Result) == 0 && len(w.Error) == 0 {
			return nil, invalidRequest(id, `missing "method" member`)
		}
		return nil, invalidRequest(id, `a response must carry an "id"`)
	}
	switch {
	case len(w.Result) > 0 && len(w.Error) > 0:
		return nil, invalidRequest(id, `a response cannot carry both "result" and "error"`)
	case len(w.Result) > 0:
		if !id.IsValid() {
			return nil, invalidRequest(id, "a result response must carry a string or number id")
		}
		return &Response{ID: id, Result: bytes.Clone(w.Result)}, nil
	case len(w.Error) > 0:
		e, err := decodeErrorObject(w.Error)
		if err != nil {
			return nil, invalidRequest(id, err.Error())
		}
		return &Response{ID: id, Error: e}, nil
	default:
		return nil, invalidRequest(id, `missing "method" member`)
	}
}

// decodeErrorObject decodes a response's "error" member; its error's text
// says what is wrong with it.
func decodeErrorObject(raw jsontext.Value) (*Error, error) {
	var e struct {
		Code    jsontext.Value `json:"code"`
		Message jsontext.Value `json:"message"`
		Data    jsontext.Value `json:"data"`
	}
	if err := jsonUnmarshal(raw, &e); err != nil {
		return nil, errors.New(`"error" must be an object`)
	}
	code, err := strconv.ParseInt(string(e.Code), 10, 64)
	if err != nil {
		return nil, errors.New(`"error.code" must be an integer`)
	}
	if e.Message.Kind() != '"' {
		return nil, errors.New(`"error.message" must be a string`)
	}
	var msg string
	_ = jsonUnmarshal(e.Message, &msg)
	var data json.RawMessage
	if len(e.Data) > 0 {
		data = json.RawMessage(e.Data)
	}
	return &Error{Code: code, Message: msg, Data: data}, nil
}

// classify turns a decoding failure of the envelope into a *DecodeError.
func classify(data []byte, err error) error {
	if errors.Is(err, jsontext.ErrDuplicateName) {
		return &DecodeError{Err: NewError(CodeInvalidRequest, "Invalid Request: duplicate member name")}
	}
	if _, ok := errors.AsType[*jsontext.SyntacticError](err); ok || !jsontext.Value(data).IsValid() {
		return &DecodeError{Err: NewError(CodeParseError, "Parse error: invalid JSON")}
	}
	// Valid JSON that is not an object.
	return &DecodeError{Err: NewError(CodeInvalidRequest, "Invalid Request: a message must be a JSON object")}
}

func asError(err error) *Error {
	if e, ok := errors.AsType[*Error](err); ok {
		return e
	}
	return NewError(CodeInvalidRequest, "Invalid Request: "+err.Error())
}

func isNull(v []byte) bool { return string(v) == "null" }

// AppendMessage appends the JSON encoding of m to b. Params, results and
// error data are written as given; they must be valid JSON. An empty *Batch
// appends nothing.
func AppendMessage(b []byte, m Message) ([]byte, error) {
	switch m := m.(type) {
	case *Request:
		b = append(b, `{"jsonrpc":"2.0",`...)
		if m.ID.IsValid() {
			b = append(b, `"id":`...)
			b = append(b, m.ID.raw...)
			b = append(b, ',')
		}
		b = append(b, `"method":`...)
		var err error
		if b, err = jsontext.AppendQuote(b, m.Method); err != nil {
			return b, err
		}
		if len(m.Params) > 0 {
			b = append(b, `,"params":`...)
			b = append(b, m.Params...)
		}
		return append(b, '}'), nil
	case *Response:
		b = append(b, `{"jsonrpc":"2.0","id":`...)
		if m.ID.IsValid() {
			b = append(b, m.ID.raw...)
		} else {
			b = append(b, "null"...)
		}
		if m.Error != nil {
			// Written by hand: the data is kept as given (jsonv2.Marshal would
			// reformat it), and invalid UTF-8 in the message is replaced
			// rather than failing, so an error response can always be sent.
			b = append(b, `,"error":{"code":`...)
			b = strconv.AppendInt(b, m.Error.Code, 10)
			b = append(b, `,"message":`...)
			b, _ = jsontext.AppendQuote(b, m.Error.Message)
			if len(m.Error.Data) > 0 {
				b = append(b, `,"data":`...)
				b = append(b, m.Error.Data...)
			}
			b = append(b, '}')
		} else {
			b = append(b, `,"result":`...)
			if len(m.Result) == 0 {
				b = append(b, "{}"...)
			} else {
				b = append(b, m.Result...)
			}
		}
		return append(b, '}'), nil
	case *Batch:
		return appendBatch(b, m)
	default:
		return b, errors.New("protocol: unknown message type")
	}
}

// EncodeMessage returns the JSON encoding of m.
func EncodeMessage(m Message) ([]byte, error) { return AppendMessage(nil, m) }
