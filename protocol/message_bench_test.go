package protocol

import "testing"

// BenchmarkDecodeMessage decodes the messages of a tool call: the request,
// its result, and an error response.
func BenchmarkDecodeMessage(b *testing.B) {
	for _, bc := range []struct{ name, msg string }{
		{"Request", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":"p1"}}}`},
		{"Result", `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"3"}],"structuredContent":{"sum":3}}}`},
		{"Error", `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params","data":{"field":"a"}}}`},
	} {
		data := []byte(bc.msg)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeMessage(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
