package bench_test

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// BenchmarkToolResultDecode measures the client's share of a tools/call:
// decoding the response message as it arrives and its result into a
// fastmcp.ToolResult, as a client.Client does (protocol.DecodeMessage,
// then session.DecodeResult), with no transport. Two answers: add (the
// answer of the tool benchmarks: one short text block and a structured
// result) and blocks (eight text blocks of 1 KiB and a 16 KiB image).
//
// The floor decodes the same message with go-json-experiment into a fixed
// struct holding just what the answer carries, in one call. fastmcp
// reports time-vs-floor (the bar is 2).
func BenchmarkToolResultDecode(b *testing.B) {
	for _, tc := range []struct {
		name   string
		answer []byte
	}{
		{"add", []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"12"}],"structuredContent":{"result":12}}}`)},
		{"blocks", blocksAnswer()},
	} {
		key := "decode/" + tc.name
		b.Run(tc.name+"/floor", func(b *testing.B) {
			var m floorAnswer
			b.ReportAllocs()
			b.SetBytes(int64(len(tc.answer)))
			for b.Loop() {
				m = floorAnswer{}
				if err := json.Unmarshal(tc.answer, &m); err != nil {
					b.Fatal(err)
				}
			}
			if len(m.Result.Content) == 0 {
				b.Fatal("no content")
			}
			recordFloor(b, key)
		})
		b.Run(tc.name+"/fastmcp", func(b *testing.B) {
			var res fastmcp.ToolResult
			b.ReportAllocs()
			b.SetBytes(int64(len(tc.answer)))
			for b.Loop() {
				msg, err := protocol.DecodeMessage(tc.answer)
				if err != nil {
					b.Fatal(err)
				}
				res = fastmcp.ToolResult{}
				if err := session.DecodeResult(protocol.MethodToolsCall, msg.(*protocol.Response).Result, &res); err != nil {
					b.Fatal(err)
				}
			}
			if len(res.Content) == 0 {
				b.Fatal("no content")
			}
			reportTime(b, key)
		})
	}
}

// floorAnswer is what the floor reads of an answer.
type floorAnswer struct {
	JSONRPC string         `json:"jsonrpc"`
	ID      jsontext.Value `json:"id"`
	Result  struct {
		Content []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			Data     []byte `json:"data"`
			MIMEType string `json:"mimeType"`
		} `json:"content"`
		StructuredContent jsontext.Value `json:"structuredContent"`
		IsError           bool           `json:"isError"`
	} `json:"result"`
}

// blocksAnswer is a tools/call answer with eight 1 KiB text blocks and a
// 16 KiB PNG-typed image block.
func blocksAnswer() []byte {
	text := bytes.Repeat([]byte("lorem ipsum "), 1024/12)
	b := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[`)
	for i := range 8 {
		b = append(b, `{"type":"text","text":"`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, text...)
		b = append(b, `"},`...)
	}
	img := make([]byte, 16<<10)
	for i := range img {
		img[i] = byte(i * 7)
	}
	b = append(b, `{"type":"image","mimeType":"image/png","data":"`...)
	b = base64.StdEncoding.AppendEncode(b, img)
	return append(b, `"}]}}`...)
}
