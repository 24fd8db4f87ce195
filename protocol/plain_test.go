package protocol

import (
	"reflect"
	"strings"
	"testing"
)

// plainSeeds are messages for FuzzPlainEnvelope: plain ones, and ones the
// plain reader must decline.
var plainSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`,
	` { "jsonrpc" : "2.0" , "id" : "x" , "method" : "m" , "params" : [ 1 , -2.5e+3 , true , false , null , "é" ] } `,
	`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"3"}]}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"b":{"c":[[[]]]}}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"a":2}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"x":1,"x":2}}}`,
	`{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}`,
	`{"jsonrpc":"2\u002e0","id":1,"method":"m"}`,
	`{"jsonrpc":"2.0","id":01,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m"}x`,
	`{"jsonrpc":"2.0","id":1,"method":"m",}`,
	`{"jsonrpc":"2.0","id":1,"method":"m\x01"}`,
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}",
	`{"jsonrpc":"2.0","id":1.5e,"method":"m"}`,
	`[1]`, `{}`, ``, `{"a":tru}`, `{"a":-}`, `{"a":1.}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":` + strings.Repeat(`[`, 40) + strings.Repeat(`]`, 40) + `}`,
}

// FuzzPlainEnvelope checks that whenever the plain reader reads a message,
// the envelope decoder reads it too, finding the same members.
func FuzzPlainEnvelope(f *testing.F) {
	for _, s := range plainSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := readPlainEnvelope([]byte(s))
		if !ok {
			return
		}
		want, err := readEnvelope([]byte(s))
		if err != nil {
			t.Fatalf("plain reader accepts %q, the decoder fails: %v", s, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read %q as\n  %#v\nthe decoder as\n  %#v", s, got, want)
		}
	})
}

// TestPlainEnvelopeReads checks that the plain reader reads the messages
// it is for (it declining everything would pass the fuzz test).
func TestPlainEnvelopeReads(t *testing.T) {
	t.Parallel()
	for _, s := range plainSeeds[:8] {
		if _, ok := readPlainEnvelope([]byte(s)); !ok {
			t.Errorf("plain reader declines %s", s)
		}
	}
}
