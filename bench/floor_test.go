package bench_test

import (
	"bytes"
	"math"
	"strconv"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The hand-written tool server: the floor of the tools/call benchmarks.
// It serves one tool, add, the way a careful programmer would without an
// SDK: decode the request into a fixed struct with go-json-experiment
// (case-sensitive names, duplicate names rejected, as fastmcp decodes),
// check the envelope, the tool name and the argument types, check the one
// validation rule (b >= 0), add, and append the response bytes by hand,
// byte for byte what fastmcp sends for the same call. It allocates
// nothing per call.

// floorCall is the part of a request the floor reads.
type floorCall struct {
	JSONRPC jsontext.Value `json:"jsonrpc"`
	ID      jsontext.Value `json:"id"`
	Method  jsontext.Value `json:"method"`
	Params  struct {
		Name      jsontext.Value `json:"name"`
		Arguments struct {
			A int64 `json:"a"`
			B int64 `json:"b"`
		} `json:"arguments"`
	} `json:"params"`
}

// floorTools answers one request line, appending the answer line (if any)
// to out.
type floorTools struct {
	req  floorCall
	list []byte // the pre-encoded tools/list result; nil when not served
}

const absent = math.MinInt64 // an argument the request did not send

// serve appends the answer to line (a request or notification) to out.
func (f *floorTools) serve(line []byte, out []byte) []byte {
	r := &f.req
	r.JSONRPC, r.ID, r.Method, r.Params.Name = r.JSONRPC[:0], r.ID[:0], r.Method[:0], r.Params.Name[:0]
	r.Params.Arguments.A, r.Params.Arguments.B = absent, absent
	if err := json.Unmarshal(line, r); err != nil {
		if len(r.ID) > 0 && isMethod(r.Method, "tools/call") {
			return floorError(out, r.ID, -32602, "Invalid params: "+err.Error())
		}
		return floorError(out, nil, -32700, "Parse error")
	}
	if string(r.JSONRPC) != `"2.0"` || r.Method.Kind() != '"' {
		return floorError(out, r.ID, -32600, "Invalid Request")
	}
	if len(r.ID) == 0 {
		return out // a notification
	}
	switch {
	case isMethod(r.Method, "tools/call"):
	case isMethod(r.Method, "initialize"):
		out = floorResult(out, r.ID)
		return append(append(out, floorInitResult...), "}\n"...)
	case f.list != nil && isMethod(r.Method, "tools/list"):
		out = floorResult(out, r.ID)
		return append(append(out, f.list...), "}\n"...)
	default:
		return floorError(out, r.ID, -32601, "Method not found")
	}
	if !isMethod(r.Params.Name, "add") {
		return floorError(out, r.ID, -32602, "Invalid params: unknown tool")
	}
	a, b := r.Params.Arguments.A, r.Params.Arguments.B
	switch {
	case a == absent || b == absent:
		return floorToolError(out, r.ID, "invalid arguments: a and b are required")
	case b < 0:
		return floorToolError(out, r.ID, "invalid arguments: b must be at least 0")
	}
	out = floorResult(out, r.ID)
	out = append(out, `{"content":[{"type":"text","text":"`...)
	out = strconv.AppendInt(out, a+b, 10)
	out = append(out, `"}],"structuredContent":{"result":`...)
	out = strconv.AppendInt(out, a+b, 10)
	return append(out, "}}}\n"...)
}

// isMethod reports whether the JSON string v is s (comparing the raw text,
// and the unquoted text when it has escapes).
func isMethod(v jsontext.Value, s string) bool {
	if len(v) == len(s)+2 && string(v[1:len(v)-1]) == s {
		return true
	}
	if bytes.IndexByte(v, '\\') < 0 || v.Kind() != '"' {
		return false
	}
	u, err := jsontext.AppendUnquote(nil, v)
	return err == nil && string(u) == s
}

func floorResult(out []byte, id jsontext.Value) []byte {
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	return append(out, `,"result":`...)
}

func floorError(out []byte, id jsontext.Value, code int, msg string) []byte {
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	if len(id) == 0 {
		out = append(out, "null"...)
	} else {
		out = append(out, id...)
	}
	out = append(out, `,"error":{"code":`...)
	out = strconv.AppendInt(out, int64(code), 10)
	out = append(out, `,"message":`...)
	out, _ = jsontext.AppendQuote(out, msg)
	return append(out, "}}\n"...)
}

func floorToolError(out []byte, id jsontext.Value, msg string) []byte {
	out = floorResult(out, id)
	out = append(out, `{"content":[{"type":"text","text":`...)
	out, _ = jsontext.AppendQuote(out, msg)
	return append(out, `}],"isError":true}}`+"\n"...)
}

const floorInitResult = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"floor","version":"1"}}`
