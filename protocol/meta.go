package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Meta is the contents of a _meta member: metadata that clients and servers
// attach to requests, results, notifications and many objects. Keys are
// "prefix/name" strings; prefixes whose second label is "modelcontextprotocol"
// or "mcp" are reserved for MCP (see the Meta… key constants).
//
// Values decode as JSON-like Go values (string, float64, bool, nil,
// []any, map[string]any), so a large numeric value may lose precision; read
// the reserved request keys through [RequestMeta], which keeps them exact.
type Meta map[string]any

// Reserved _meta keys.
const (
	// MetaProgressToken asks for notifications/progress about a request; its
	// value is a [ProgressToken]. All revisions.
	MetaProgressToken = "progressToken"
	// MetaProtocolVersion carries the revision of a request (2026-07-28, required).
	MetaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	// MetaClientInfo identifies the client software, an [Implementation] (2026-07-28).
	MetaClientInfo = "io.modelcontextprotocol/clientInfo"
	// MetaClientCapabilities carries the [ClientCapabilities] of a request (2026-07-28, required).
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	// MetaLogLevel is the [LoggingLevel] the client wants log messages at for
	// a request; without it the server sends none (2026-07-28).
	MetaLogLevel = "io.modelcontextprotocol/logLevel"
	// MetaServerInfo identifies the server software in a result's _meta, an
	// [Implementation] (2026-07-28).
	MetaServerInfo = "io.modelcontextprotocol/serverInfo"
	// MetaSubscriptionID is the id of the subscriptions/listen request a
	// notification (or the closing result) belongs to (2026-07-28).
	MetaSubscriptionID = "io.modelcontextprotocol/subscriptionId"
	// MetaRelatedTask associates a message with a task, a
	// [RelatedTaskMetadata] (2025-11-25 only; tasks became an extension).
	MetaRelatedTask = "io.modelcontextprotocol/related-task"
	// MetaTraceParent, MetaTraceState and MetaBaggage carry OpenTelemetry
	// trace context in W3C formats (reserved since 2026-07-28).
	MetaTraceParent = "traceparent"
	MetaTraceState  = "tracestate"
	MetaBaggage     = "baggage"
)

// RequestMeta is the parsed _meta of a request: the reserved keys decoded
// into their types and every other key kept as raw JSON in Other.
//
// ProgressToken keeps the exact JSON text of the token, so a numeric token is
// echoed back exactly as the peer wrote it. The 2026-07-28 keys are absent
// (zero) on requests of earlier revisions.
type RequestMeta struct {
	// ProgressToken, when valid, asks for notifications/progress.
	ProgressToken ProgressToken `json:"progressToken,omitzero"`
	// ProtocolVersion is the revision the request is written in (2026-07-28).
	ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion,omitzero"`
	// ClientInfo identifies the client software (2026-07-28).
	ClientInfo *Implementation `json:"io.modelcontextprotocol/clientInfo,omitzero"`
	// ClientCapabilities are the capabilities declared for this request (2026-07-28).
	ClientCapabilities *ClientCapabilities `json:"io.modelcontextprotocol/clientCapabilities,omitzero"`
	// LogLevel is the minimum level of log notifications wanted (2026-07-28).
	LogLevel LoggingLevel `json:"io.modelcontextprotocol/logLevel,omitzero"`
	// Other holds every other key with its raw JSON value.
	Other map[string]json.RawMessage `json:",embed"`
}

// UnmarshalJSONFrom decodes a _meta object. It reads the reserved keys
// directly, without reflection, because it runs on every request.
func (m *RequestMeta) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		return errors.New("protocol: _meta must be an object")
	}
	*m = RequestMeta{}
	for dec.PeekKind() != '}' {
		raw, err := dec.ReadValue()
		if err != nil {
			return err
		}
		switch {
		case nameIs(raw, MetaProgressToken):
			v, err := dec.ReadValue()
			if err != nil {
				return err
			}
			if m.ProgressToken, err = ParseID(v); err != nil {
				return errors.New("protocol: progressToken must be a string or a number")
			}
		case nameIs(raw, MetaProtocolVersion):
			if m.ProtocolVersion, err = readString(dec, MetaProtocolVersion); err != nil {
				return err
			}
		case nameIs(raw, MetaLogLevel):
			s, err := readString(dec, MetaLogLevel)
			if err != nil {
				return err
			}
			m.LogLevel = LoggingLevel(s)
		case nameIs(raw, MetaClientInfo):
			if dec.PeekKind() == 'n' {
				m.ClientInfo = nil
				_, err = dec.ReadToken()
			} else {
				m.ClientInfo = new(Implementation)
				err = jsonv2.UnmarshalDecode(dec, m.ClientInfo)
			}
			if err != nil {
				return err
			}
		case nameIs(raw, MetaClientCapabilities):
			if dec.PeekKind() == 'n' {
				m.ClientCapabilities = nil
				_, err = dec.ReadToken()
			} else {
				m.ClientCapabilities = new(ClientCapabilities)
				err = jsonv2.UnmarshalDecode(dec, m.ClientCapabilities)
			}
			if err != nil {
				return err
			}
		default:
			name, err := jsontext.AppendUnquote(nil, raw)
			if err != nil {
				return err
			}
			v, err := dec.ReadValue()
			if err != nil {
				return err
			}
			if m.Other == nil {
				m.Other = make(map[string]json.RawMessage)
			}
			m.Other[string(name)] = json.RawMessage(v.Clone())
		}
	}
	_, err = dec.ReadToken()
	return err
}

// readString reads a JSON string (or null, as "") for the _meta key name.
func readString(dec *jsontext.Decoder, name string) (string, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return "", err
	}
	switch tok.Kind() {
	case '"':
		return tok.String(), nil
	case 'n':
		return "", nil
	default:
		return "", fmt.Errorf("protocol: %s must be a string", name)
	}
}

// scanner is a pooled decoder over a byte slice.
type scanner struct {
	buf bytes.Buffer
	dec jsontext.Decoder
}

var scanners = sync.Pool{New: func() any { return new(scanner) }}

func getScanner(b []byte) *scanner {
	s := scanners.Get().(*scanner)
	s.buf = *bytes.NewBuffer(b) // the decoder reads the slice in place, without copying
	s.dec.Reset(&s.buf, decodeOptions)
	return s
}

func putScanner(s *scanner) {
	s.buf = bytes.Buffer{}
	s.dec.Reset(&s.buf)
	scanners.Put(s)
}

// findMember positions dec on the value of the top-level member name of the
// JSON object being read. It reports whether the member exists; on false the
// whole object has been consumed.
func findMember(dec *jsontext.Decoder, name string) (bool, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return false, err
	}
	if tok.Kind() != '{' {
		return false, errNotObject
	}
	for dec.PeekKind() != '}' {
		raw, err := dec.ReadValue() // the quoted name, read without allocating
		if err != nil {
			return false, err
		}
		if nameIs(raw, name) {
			return true, nil
		}
		if err := dec.SkipValue(); err != nil {
			return false, err
		}
	}
	_, err = dec.ReadToken()
	return false, err
}

// nameIs reports whether the quoted JSON string raw is name.
func nameIs(raw jsontext.Value, name string) bool {
	if len(raw) == len(name)+2 && string(raw[1:len(raw)-1]) == name {
		return true
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return false
	}
	u, err := jsontext.AppendUnquote(nil, raw)
	return err == nil && string(u) == name
}

var errNotObject = errors.New("protocol: not a JSON object")

var metaName = []byte(`"_meta"`)

// ParseRequestMeta decodes the top-level _meta member of a request's params.
// Other members are skipped without being decoded, and scanning stops once
// _meta has been read, so params must already be valid JSON without
// duplicate names (as [DecodeMessage] guarantees). Absent or null params, or
// params without _meta, give the zero RequestMeta.
func ParseRequestMeta(params json.RawMessage) (RequestMeta, error) {
	var m RequestMeta
	if len(params) == 0 || isNull(params) {
		return m, nil
	}
	if bytes.IndexByte(params, '\\') < 0 && !bytes.Contains(params, metaName) {
		// Without escapes, a _meta member would show as "_meta": params
		// have none (the common case), and need no scan.
		return m, nil
	}
	s := getScanner(params)
	defer putScanner(s)
	found, err := findMember(&s.dec, "_meta")
	if err != nil {
		if errors.Is(err, errNotObject) {
			return m, nil // positional (array) params carry no _meta
		}
		return m, fmt.Errorf("protocol: reading params: %w", err)
	}
	if !found {
		return m, nil
	}
	switch s.dec.PeekKind() {
	case 'n':
		return m, nil
	case '{':
	default:
		return m, fmt.Errorf("%w: _meta must be an object", ErrInvalidParams)
	}
	// Called directly rather than through jsonv2.UnmarshalDecode, which would
	// move m to the heap on every call; the method never returns sentinels.
	if err := m.UnmarshalJSONFrom(&s.dec); err != nil {
		return RequestMeta{}, fmt.Errorf("%w: _meta: %v", ErrInvalidParams, err)
	}
	return m, nil
}

// SetMeta returns a copy of the JSON object params (request or notification
// params, or a result) with _meta[key] set to value, added or replaced.
// Absent or null params become {"_meta":{key:value}}; a missing _meta is
// added. value is encoded as JSON, except that a [json.RawMessage] (or a
// jsontext.Value) is used as it is. The other members are copied
// unchanged, and no member name is ever duplicated. params itself is not
// modified.
func SetMeta(params json.RawMessage, key string, value any) (json.RawMessage, error) {
	v, err := encodeMetaValue(value)
	if err != nil {
		return nil, fmt.Errorf("protocol: encoding _meta[%q]: %w", key, err)
	}
	return setMeta(params, []metaEntry{{key, v}})
}

// MergeMeta is like [SetMeta] for every entry of m: each key of m is added
// to, or replaced in, the _meta of params. New keys are written in sorted
// order, so the result is deterministic.
func MergeMeta(params json.RawMessage, m Meta) (json.RawMessage, error) {
	entries := make([]metaEntry, 0, len(m))
	for k, val := range m {
		v, err := encodeMetaValue(val)
		if err != nil {
			return nil, fmt.Errorf("protocol: encoding _meta[%q]: %w", k, err)
		}
		entries = append(entries, metaEntry{k, v})
	}
	slices.SortFunc(entries, func(a, b metaEntry) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
	return setMeta(params, entries)
}

type metaEntry struct {
	key   string
	value []byte
}

func encodeMetaValue(v any) ([]byte, error) {
	var raw jsontext.Value
	switch r := v.(type) {
	case json.RawMessage:
		raw = jsontext.Value(r)
	case jsontext.Value:
		raw = r
	}
	if raw != nil {
		if !raw.IsValid() {
			return nil, errors.New("invalid JSON value")
		}
		return raw, nil
	}
	return jsonv2.Marshal(v, jsonv2.Deterministic(true))
}

// appendMetaObject appends the members of the existing _meta object old
// (which may be nil) minus the keys of entries, then entries, as one object.
func appendMetaObject(b []byte, old jsontext.Value, entries []metaEntry) ([]byte, error) {
	b = append(b, '{')
	first := true
	if len(old) > 0 {
		s := getScanner(old)
		defer putScanner(s)
		dec := &s.dec
		if _, err := dec.ReadToken(); err != nil { // '{'
			return nil, err
		}
		for dec.PeekKind() != '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			name := tok.String()
			val, err := dec.ReadValue()
			if err != nil {
				return nil, err
			}
			if slices.ContainsFunc(entries, func(e metaEntry) bool { return e.key == name }) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			if b, err = jsontext.AppendQuote(b, name); err != nil {
				return nil, err
			}
			b = append(b, ':')
			b = append(b, val...)
		}
	}
	for _, e := range entries {
		if !first {
			b = append(b, ',')
		}
		first = false
		var err error
		if b, err = jsontext.AppendQuote(b, e.key); err != nil {
			return nil, err
		}
		b = append(b, ':')
		b = append(b, e.value...)
	}
	return append(b, '}'), nil
}

func setMeta(params []byte, entries []metaEntry) (json.RawMessage, error) {
	if len(params) == 0 || isNull(params) {
		b := append(make([]byte, 0, 16+metaSize(entries)), `{"_meta":`...)
		b, err := appendMetaObject(b, nil, entries)
		if err != nil {
			return nil, err
		}
		return append(b, '}'), nil
	}
	s := getScanner(params)
	defer putScanner(s)
	dec := &s.dec
	found, err := findMember(dec, "_meta")
	if err != nil {
		if errors.Is(err, errNotObject) {
			return nil, fmt.Errorf("protocol: cannot set _meta: params are not a JSON object")
		}
		return nil, fmt.Errorf("protocol: reading params: %w", err)
	}
	if !found {
		// Fast path: insert "_meta" as the first member.
		open := bytes.IndexByte(params, '{')
		rest := bytes.TrimLeft(params[open+1:], " \t\r\n")
		b := make([]byte, 0, len(params)+16+metaSize(entries))
		b = append(b, params[:open+1]...)
		b = append(b, `"_meta":`...)
		if b, err = appendMetaObject(b, nil, entries); err != nil {
			return nil, err
		}
		if len(rest) > 0 && rest[0] != '}' {
			b = append(b, ',')
		}
		return append(b, rest...), nil
	}
	old, err := dec.ReadValue()
	if err != nil {
		return nil, fmt.Errorf("protocol: reading _meta: %w", err)
	}
	end := int(dec.InputOffset())
	start := end - len(old)
	switch old.Kind() {
	case 'n':
		old = nil
	case '{':
	default:
		return nil, fmt.Errorf("protocol: cannot set _meta: existing _meta is not an object")
	}
	b := make([]byte, 0, len(params)+metaSize(entries)+2)
	b = append(b, params[:start]...)
	if b, err = appendMetaObject(b, old, entries); err != nil {
		return nil, err
	}
	return append(b, params[end:]...), nil
}

func metaSize(entries []metaEntry) int {
	n := 2
	for _, e := range entries {
		n += len(e.key) + len(e.value) + 4
	}
	return n
}
