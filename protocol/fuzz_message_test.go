package protocol_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// messageSeeds are valid and invalid messages, used as fuzz seeds.
var messageSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":7}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"x","params":[1,"two",{"three":3}]}`,
	`{"jsonrpc":"2.0","id":2,"result":{}}`,
	`{"jsonrpc":"2.0","id":"r","result":null}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
	`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad","data":{"field": "a", "why" : [1, 2]}}}`,
	`{"jsonrpc":"2.0","id":1e400,"result":1}`,
	`{"jsonrpc":"2.0","id":-0.0e-0,"method":"m"}`,
	`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"m"}`,
	`{"jsonrpc":"2.0","id":"\u0031\ud83d\ude00","method":"\u0070ing"}`,
	` { "jsonrpc" : "2.0" , "id" : 1 , "method" : "x" , "params" : { "a" : 1 } } `,
	`{"jsonrpc":"2\u002e0","id":1,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","extra":{"ignored":true}}`,
	// Batches (2025-03-26), with valid and invalid elements.
	`[{"jsonrpc":"2.0","id":1,"method":"x"}]`,
	`[{"jsonrpc":"2.0","id":1,"method":"x"},{"jsonrpc":"2.0","method":"n","params":{"a":1}}]`,
	` [ {"jsonrpc":"2.0","id":"r","result":{}} , {"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m"}} ] `,
	`[1,2,3]`,
	`[[{"jsonrpc":"2.0","id":1,"method":"x"}]]`,
	`[{"jsonrpc":"2.0","id":1,"id":2,"method":"x"},{"jsonrpc":"1.0","id":7,"method":"x"},null,{"jsonrpc":"2.0","method":"n"}]`,
	// Invalid.
	`[]`,
	`[{"jsonrpc":"2.0","id":1,"method":"x"},`,
	`[{"jsonrpc":"2.0","id":1,"method":"x"}] []`,
	"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}]",
	``,
	`{`,
	`null`,
	`{"jsonrpc":"1.0","id":1,"method":"x"}`,
	`{"Jsonrpc":"2.0","ID":1,"Method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","method":"y"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","\u006dethod":"y"}`,
	`{"jsonrpc":"2.0","id":null,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":2}}`,
	`{"jsonrpc":"2.0","id":{},"method":"x"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":"s"}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}",
	`{"jsonrpc":"2.0","id":1,"method":"\ud800"}`,
	`{"jsonrpc":"2.0","id":1,"result":1} {}`,
	// Shapes at the edges of the envelope reader.
	` { "jsonrpc" : "2.0" , "id" : "x" , "method" : "m" , "params" : [ 1 , -2.5e+3 , true , false , null , "é" ] } `,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"b":{"c":[[[]]]}}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"a":2}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"x":1,"x":2}}}`,
	`{"jsonrpc":"2.0","id":01,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m",}`,
	`{"jsonrpc":"2.0","id":1,"method":"m\x01"}`,
	`{"jsonrpc":"2.0","id":1.5e,"method":"m"}`,
	`{}`, `{"a":tru}`, `{"a":-}`, `{"a":1.}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":` + strings.Repeat(`[`, 40) + strings.Repeat(`]`, 40) + `}`,
}

// FuzzDecodeMessage checks that DecodeMessage never panics, that every
// failure is a *protocol.DecodeError carrying a parse or invalid-request
// error, and that every message it accepts survives an encode/decode round
// trip unchanged, ids keeping their exact JSON text.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range messageSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		buf := bytes.Clone(data)
		m, err := protocol.DecodeMessage(buf)
		if err != nil {
			checkDecodeError(t, data, err)
			return
		}
		if b, ok := m.(*protocol.Batch); ok {
			checkBatch(t, data, buf, b)
			return
		}
		b1, err := protocol.AppendMessage(nil, m)
		if err != nil {
			t.Fatalf("AppendMessage(%#v) of decoded %q: %v", m, data, err)
		}
		// The message keeps no reference to the input.
		for i := range buf {
			buf[i] = 'x'
		}
		if b, err := protocol.AppendMessage(nil, m); err != nil || !bytes.Equal(b, b1) {
			t.Fatalf("message changed when its input was overwritten:\n%s\n%s (%v)", b1, b, err)
		}
		m2, err := protocol.DecodeMessage(b1)
		if err != nil {
			t.Fatalf("re-decoding %s (from %q): %v", b1, data, err)
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("round trip changed the message:\ninput %q\n  got %#v\n want %#v", data, m2, m)
		}
		b2, err := protocol.AppendMessage(nil, m2)
		if err != nil || !bytes.Equal(b1, b2) {
			t.Fatalf("encoding not stable:\n%s\n%s (%v)", b1, b2, err)
		}
		// The id is the exact text of the id member.
		raw, ok := protocol.Member(data, "id")
		id := messageID(m)
		switch {
		case !ok || string(raw) == "null":
			if id.IsValid() {
				t.Fatalf("id %s decoded from %q, which has no id", id.Raw(), data)
			}
		case id.Raw() != string(raw):
			t.Fatalf("id %q decoded as %q", raw, id.Raw())
		}
	})
}

// checkBatch checks a batch decoded from data (read from buf): it is not
// empty, holds no batch, every invalid element has an error response that
// can be sent, and its valid messages survive an encode/decode round trip
// unchanged, without keeping a reference to buf.
func checkBatch(t *testing.T, data, buf []byte, b *protocol.Batch) {
	t.Helper()
	if len(b.Messages)+len(b.Invalid) == 0 {
		t.Fatalf("DecodeMessage(%q) returned an empty batch", data)
	}
	if _, err := protocol.AppendMessage(nil, b); len(b.Invalid) > 0 && err == nil {
		t.Fatalf("a batch with invalid elements was encoded")
	}
	for _, de := range b.Invalid {
		if de == nil || de.Err == nil {
			t.Fatalf("DecodeMessage(%q): invalid element without an error", data)
		}
		if c := de.Err.Code; c != protocol.CodeParseError && c != protocol.CodeInvalidRequest {
			t.Fatalf("DecodeMessage(%q): invalid element with code %d", data, c)
		}
		if _, err := protocol.AppendMessage(nil, de.Response()); err != nil {
			t.Fatalf("encoding the error response of an invalid element: %v", err)
		}
	}
	for _, m := range b.Messages {
		if _, ok := m.(*protocol.Batch); ok {
			t.Fatalf("DecodeMessage(%q): a batch inside a batch", data)
		}
	}
	valid := &protocol.Batch{Messages: b.Messages}
	b1, err := protocol.AppendMessage(nil, valid)
	if err != nil {
		t.Fatalf("AppendMessage of the valid elements of %q: %v", data, err)
	}
	if len(b.Messages) == 0 {
		if len(b1) != 0 {
			t.Fatalf("an empty batch encoded as %q", b1)
		}
		return
	}
	for i := range buf {
		buf[i] = 'x'
	}
	m2, err := protocol.DecodeMessage(b1)
	if err != nil {
		t.Fatalf("re-decoding %s (from %q): %v", b1, data, err)
	}
	if !reflect.DeepEqual(valid, m2) {
		t.Fatalf("round trip changed the batch:\ninput %q\n  got %#v\n want %#v", data, m2, valid)
	}
}

// checkDecodeError checks the error DecodeMessage returned for data.
func checkDecodeError(t *testing.T, data []byte, err error) {
	t.Helper()
	de, ok := err.(*protocol.DecodeError)
	if !ok {
		t.Fatalf("DecodeMessage(%q) error %T %v, want *protocol.DecodeError", data, err, err)
	}
	if de.Err == nil {
		t.Fatalf("DecodeMessage(%q): DecodeError without Err", data)
	}
	if c := de.Err.Code; c != protocol.CodeParseError && c != protocol.CodeInvalidRequest {
		t.Fatalf("DecodeMessage(%q) error code %d (%v), want -32700 or -32600", data, c, err)
	}
	if de.ID.IsValid() {
		if raw, ok := protocol.Member(data, "id"); !ok || string(raw) != de.ID.Raw() {
			t.Fatalf("DecodeError id %q, input id %q", de.ID.Raw(), raw)
		}
	}
	// The error response can always be sent and read back.
	b, err := protocol.AppendMessage(nil, de.Response())
	if err != nil {
		t.Fatalf("encoding error response: %v", err)
	}
	back, err := protocol.DecodeMessage(b)
	if err != nil {
		t.Fatalf("error response %s does not decode: %v", b, err)
	}
	if r, ok := back.(*protocol.Response); !ok || r.Error == nil || r.Error.Code != de.Err.Code || r.ID != de.ID {
		t.Fatalf("error response %s decoded as %#v", b, back)
	}
}

func messageID(m protocol.Message) protocol.ID {
	switch m := m.(type) {
	case *protocol.Request:
		return m.ID
	case *protocol.Response:
		return m.ID
	}
	return protocol.ID{}
}

func req(id, method, params string) *protocol.Request {
	r := &protocol.Request{Method: method}
	if id != "" {
		r.ID = mustID(id)
	}
	if params != "" {
		r.Params = json.RawMessage(params)
	}
	return r
}

func mustID(raw string) protocol.ID {
	id, err := protocol.ParseID([]byte(raw))
	if err != nil {
		panic(err)
	}
	return id
}

// TestDecodeMessage covers DecodeMessage edge cases: member names that differ
// from the real ones only in case (or by Unicode folding) are unknown members,
// duplicate names are refused however they are spelled, ids keep their exact
// text, and the error object is checked strictly.
func TestDecodeMessage(t *testing.T) {
	t.Parallel()
	const ir, pe = protocol.CodeInvalidRequest, protocol.CodeParseError
	tests := []struct {
		name string
		in   string
		want protocol.Message // nil: the decode must fail
		code int64            // with this code
		msg  string           // and a message containing this
		id   string           // and this id ("" for none)
	}{
		// Case variants are never the real members.
		{name: "Method", in: `{"jsonrpc":"2.0","id":1,"Method":"ping"}`, code: ir, msg: `missing "method"`, id: "1"},
		{name: "METHOD beside method", in: `{"jsonrpc":"2.0","id":1,"METHOD":"evil","method":"ping"}`, want: req("1", "ping", "")},
		{name: "escaped Method", in: `{"jsonrpc":"2.0","id":1,"\u004dethod":"ping"}`, code: ir, msg: `missing "method"`, id: "1"},
		{name: "ID makes a notification", in: `{"jsonrpc":"2.0","ID":1,"method":"ping"}`, want: req("", "ping", "")},
		{name: "Id on response", in: `{"jsonrpc":"2.0","Id":1,"result":{}}`, code: ir, msg: `must carry an "id"`},
		{name: "JsonRpc", in: `{"JsonRpc":"2.0","id":1,"method":"ping"}`, code: ir, msg: `missing "jsonrpc"`, id: "1"},
		{name: "JSONRPC", in: `{"JSONRPC":"2.0","id":1,"method":"ping"}`, code: ir, msg: `missing "jsonrpc"`, id: "1"},
		{name: "long s folds to s", in: `{"jſonrpc":"2.0","id":1,"method":"ping"}`, code: ir, msg: `missing "jsonrpc"`, id: "1"},
		{name: "Params ignored", in: `{"jsonrpc":"2.0","id":1,"method":"m","Params":{"a":1}}`, want: req("1", "m", "")},
		{name: "Result is not result", in: `{"jsonrpc":"2.0","id":1,"Result":{}}`, code: ir, msg: `missing "method"`, id: "1"},
		{name: "Error is not error", in: `{"jsonrpc":"2.0","id":1,"Error":{"code":1,"message":"m"}}`, code: ir, msg: `missing "method"`, id: "1"},
		{name: "error Code", in: `{"jsonrpc":"2.0","id":1,"error":{"Code":1,"message":"m"}}`, code: ir, msg: `"error.code"`, id: "1"},
		{name: "error Message", in: `{"jsonrpc":"2.0","id":1,"error":{"code":1,"Message":"m"}}`, code: ir, msg: `"error.message"`, id: "1"},

		// Duplicate names.
		{name: "duplicate id", in: `{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}`, code: ir, msg: "duplicate"},
		{name: "duplicate jsonrpc", in: `{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"m"}`, code: ir, msg: "duplicate"},
		{name: "duplicate by escape", in: `{"jsonrpc":"2.0","id":1,"\u0069d":2,"method":"m"}`, code: ir, msg: "duplicate"},
		{name: "duplicate unknown member", in: `{"jsonrpc":"2.0","id":1,"method":"m","x":1,"x":2}`, code: ir, msg: "duplicate"},
		{name: "duplicate in params", in: `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"b":1,"b":2}}}`, code: ir, msg: "duplicate"},
		{name: "duplicate in result", in: `{"jsonrpc":"2.0","id":1,"result":{"a":1,"a":1}}`, code: ir, msg: "duplicate"},
		{name: "duplicate in error", in: `{"jsonrpc":"2.0","id":1,"error":{"code":1,"code":2,"message":"m"}}`, code: ir, msg: "duplicate"},
		{name: "duplicate in error data", in: `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":{"k":1,"k":2}}}`, code: ir, msg: "duplicate"},
		{name: "case variants are not duplicates", in: `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"A":2}}`, want: req("1", "m", `{"a":1,"A":2}`)},

		// Null ids.
		{name: "null id on request", in: `{"jsonrpc":"2.0","id":null,"method":"m"}`, code: ir, msg: "string or a number"},
		{name: "null id on error response", in: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
			want: &protocol.Response{Error: protocol.NewError(-32700, "Parse error")}},
		{name: "null id on result", in: `{"jsonrpc":"2.0","id":null,"result":{}}`, code: ir, msg: "string or number id"},

		// Result and error together.
		{name: "result and error", in: `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}`, code: ir, msg: "both", id: "1"},
		{name: "result and null error", in: `{"jsonrpc":"2.0","id":1,"result":{},"error":null}`, code: ir, msg: "both", id: "1"},
		{name: "null result and error", in: `{"jsonrpc":"2.0","id":1,"result":null,"error":{"code":1,"message":"m"}}`, code: ir, msg: "both", id: "1"},
		{name: "request with result", in: `{"jsonrpc":"2.0","id":1,"method":"m","result":{}}`, code: ir, msg: "cannot carry", id: "1"},
		{name: "null result", in: `{"jsonrpc":"2.0","id":1,"result":null}`, want: &protocol.Response{ID: protocol.Int64ID(1), Result: json.RawMessage("null")}},

		// The error object.
		{name: "code fraction", in: `{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}`, code: ir, msg: `"error.code"`, id: "1"},
		{name: "code 1.0", in: `{"jsonrpc":"2.0","id":1,"error":{"code":-32600.0,"message":"m"}}`, code: ir, msg: `"error.code"`, id: "1"},
		{name: "code exponent", in: `{"jsonrpc":"2.0","id":1,"error":{"code":-3e4,"message":"m"}}`, code: ir, msg: `"error.code"`, id: "1"},
		{name: "code string", in: `{"jsonrpc":"2.0","id":1,"error":{"code":"-32600","message":"m"}}`, code: ir, msg: `"error.code"`, id: "1"},
		{name: "code null", in: `{"jsonrpc":"2.0","id":1,"error":{"code":null,"message":"m"}}`, code: ir, msg: `"error.code"`, id: "1"},
		{name: "code overflows int64", in: `{"jsonrpc":"2.0","id":1,"error":{"code":9223372036854775808,"message":"m"}}`, code: ir, msg: `"error.code"`, id: "1"},
		{name: "code missing", in: `{"jsonrpc":"2.0","id":1,"error":{"message":"m"}}`, code: ir, msg: `"error.code"`, id: "1"},
		{name: "message not a string", in: `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":null}}`, code: ir, msg: `"error.message"`, id: "1"},
		{name: "message missing", in: `{"jsonrpc":"2.0","id":1,"error":{"code":1}}`, code: ir, msg: `"error.message"`, id: "1"},
		{name: "error not an object", in: `{"jsonrpc":"2.0","id":1,"error":"boom"}`, code: ir, msg: `"error" must be an object`, id: "1"},
		{name: "error array", in: `{"jsonrpc":"2.0","id":1,"error":[1]}`, code: ir, msg: `"error" must be an object`, id: "1"},
		{name: "largest code", in: `{"jsonrpc":"2.0","id":1,"error":{"code":-9223372036854775808,"message":"\u00e9"}}`,
			want: &protocol.Response{ID: protocol.Int64ID(1), Error: protocol.NewError(-9223372036854775808, "é")}},
		{name: "error data kept", in: `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":{"a": [1, 2]}}}`,
			want: &protocol.Response{ID: protocol.Int64ID(1), Error: &protocol.Error{Code: 1, Message: "m", Data: json.RawMessage(`{"a": [1, 2]}`)}}},

		// Ids keep their exact text.
		{name: "huge integer id", in: `{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"m"}`, want: req("123456789012345678901234567890", "m", "")},
		{name: "id beyond float64", in: `{"jsonrpc":"2.0","id":1e400,"method":"m"}`, want: req("1e400", "m", "")},
		{name: "id with exponent", in: `{"jsonrpc":"2.0","id":1E+2,"method":"m"}`, want: req("1E+2", "m", "")},
		{name: "id 1.0", in: `{"jsonrpc":"2.0","id":1.0,"result":{}}`, want: &protocol.Response{ID: mustID("1.0"), Result: json.RawMessage("{}")}},
		{name: "id -0", in: `{"jsonrpc":"2.0","id":-0,"method":"m"}`, want: req("-0", "m", "")},
		{name: "escaped string id", in: `{"jsonrpc":"2.0","id":"\u0031","method":"m"}`, want: req(`"\u0031"`, "m", "")},
		{name: "id with spaces around", in: `{"jsonrpc":"2.0","id" :  7  ,"method":"m"}`, want: req("7", "m", "")},
		{name: "bad number id", in: `{"jsonrpc":"2.0","id":01,"method":"m"}`, code: pe, msg: "Parse error"},
		{name: "array id", in: `{"jsonrpc":"2.0","id":[1],"method":"m"}`, code: ir, msg: "string or a number"},

		// Unicode escapes in method names.
		{name: "escaped method", in: `{"jsonrpc":"2.0","id":1,"method":"\u0070ing"}`, want: req("1", "ping", "")},
		{name: "escaped slash", in: `{"jsonrpc":"2.0","id":1,"method":"tools\/call"}`, want: req("1", "tools/call", "")},
		{name: "surrogate pair", in: `{"jsonrpc":"2.0","id":1,"method":"\ud83d\ude00"}`, want: req("1", "😀", "")},
		{name: "NUL in method", in: `{"jsonrpc":"2.0","id":1,"method":"a\u0000b"}`, want: req("1", "a\x00b", "")},
		{name: "lone surrogate", in: `{"jsonrpc":"2.0","id":1,"method":"\ud800"}`, code: pe, msg: "Parse error"},
		{name: "reversed surrogates", in: `{"jsonrpc":"2.0","id":1,"method":"\ude00\ud83d"}`, code: pe, msg: "Parse error"},
		{name: "raw invalid UTF-8", in: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xc3\x28\"}", code: pe, msg: "Parse error"},

		// The envelope.
		{name: "escaped version", in: `{"jsonrpc":"2\u002e0","id":1,"method":"m"}`, want: req("1", "m", "")},
		{name: "numeric version", in: `{"jsonrpc":2.0,"id":1,"method":"m"}`, code: ir, msg: `must be "2.0"`, id: "1"},
		{name: "top-level null", in: `null`, code: ir, msg: "JSON object"},
		{name: "top-level number", in: `1`, code: ir, msg: "JSON object"},
		{name: "empty", in: ``, code: pe, msg: "Parse error"},
		{name: "two values", in: `{"jsonrpc":"2.0","method":"m"}{}`, code: pe, msg: "Parse error"},
		{name: "params null", in: `{"jsonrpc":"2.0","method":"m","params":null}`, want: req("", "m", "")},
		{name: "params array", in: `{"jsonrpc":"2.0","method":"m","params":[]}`, want: req("", "m", "[]")},
		{name: "params string", in: `{"jsonrpc":"2.0","method":"m","params":"x"}`, code: ir, msg: `"params"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := protocol.DecodeMessage([]byte(tt.in))
			if tt.want != nil {
				if err != nil {
					t.Fatalf("DecodeMessage(%s): %v", tt.in, err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("DecodeMessage(%s) =\n  %#v\nwant\n  %#v", tt.in, got, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("DecodeMessage(%s) = %#v, want an error", tt.in, got)
			}
			de, ok := errors.AsType[*protocol.DecodeError](err)
			if !ok {
				t.Fatalf("error %T %v, want *protocol.DecodeError", err, err)
			}
			if de.Err.Code != tt.code || !strings.Contains(de.Err.Message, tt.msg) {
				t.Errorf("error %d %q, want %d containing %q", de.Err.Code, de.Err.Message, tt.code, tt.msg)
			}
			if de.ID.Raw() != tt.id {
				t.Errorf("error id %q, want %q", de.ID.Raw(), tt.id)
			}
		})
	}
}

// TestAppendMessageError checks that an error response keeps its data as
// given and can be sent even when the message holds invalid UTF-8 (which is
// replaced), so a peer always gets its answer.
func TestAppendMessageError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  *protocol.Error
		want string
	}{
		{"plain", protocol.NewError(-32601, "Method not found: x"), `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: x"}}`},
		{"data as given", &protocol.Error{Code: 1, Message: "m", Data: json.RawMessage(`{"b": 2, "a": 1}`)}, `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":{"b": 2, "a": 1}}}`},
		{"null data", &protocol.Error{Code: 1, Message: "m", Data: json.RawMessage(`null`)}, `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":null}}`},
		{"escapes", protocol.NewError(-32603, "a \"quoted\"\n<tag> é"), `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"a \"quoted\"\n<tag> é"}}`},
		{"invalid UTF-8", protocol.NewError(-32603, "file \xff not found"), `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"file \uFFFD not found"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := protocol.EncodeMessage(&protocol.Response{ID: protocol.Int64ID(1), Error: tt.err})
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.ReplaceAll(tt.want, `\uFFFD`, "\uFFFD"); string(b) != want {
				t.Fatalf("got  %s\nwant %s", b, want)
			}
			if _, err := protocol.DecodeMessage(b); err != nil {
				t.Fatalf("%s does not decode: %v", b, err)
			}
		})
	}
}
