package main

import (
	"encoding/json"
	"strconv"

	"github.com/fastmcp-go/fastmcp/bench/internal/floortools"
)

// request is the part of a JSON-RPC request the floor reads.
type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  struct {
		ProtocolVersion string `json:"protocolVersion"`
		Name            string `json:"name"`
		Arguments       struct {
			A *int `json:"a"`
			B *int `json:"b"`
		} `json:"arguments"`
	} `json:"params"`
}

// response is a JSON-RPC response.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type text struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type toolResult struct {
	Content           []text `json:"content"`
	StructuredContent any    `json:"structuredContent,omitempty"`
	IsError           bool   `json:"isError,omitempty"`
}

type sum struct {
	Result int `json:"result"`
}

type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type initResult struct {
	ProtocolVersion string          `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	ServerInfo      implementation  `json:"serverInfo"`
}

// addSchema is the input schema of add.
const addSchema = `{"type":"object","properties":{"a":{"type":"integer","description":"first addend"},"b":{"type":"integer","description":"second addend","minimum":0}},"required":["a","b"]}`

// toolsList returns the encoded tools/list result: add, and the 100
// start-up tools when many is set.
func toolsList(many bool) (json.RawMessage, error) {
	type tool struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	tools := []tool{{"add", "Add two integers", json.RawMessage(addSchema)}}
	if many {
		for _, d := range floortools.Tools {
			tools = append(tools, tool{d.Name, d.Description, json.RawMessage(d.Schema)})
		}
	}
	return json.Marshal(struct {
		Tools []tool `json:"tools"`
	}{tools})
}

// answer returns the response to r, or nil for a notification.
func answer(r *request, list json.RawMessage) *response {
	if len(r.ID) == 0 {
		return nil
	}
	resp := &response{JSONRPC: "2.0", ID: r.ID}
	switch r.Method {
	case "initialize":
		v := r.Params.ProtocolVersion
		if v == "" {
			v = "2025-06-18"
		}
		resp.Result = initResult{v, json.RawMessage(`{"tools":{}}`), implementation{"floor", "1"}}
	case "tools/list":
		resp.Result = list
	case "tools/call":
		resp.Result, resp.Error = call(r)
	case "ping":
		resp.Result = struct{}{}
	default:
		resp.Error = &rpcError{-32601, "Method not found"}
	}
	return resp
}

// call runs the add tool.
func call(r *request) (*toolResult, *rpcError) {
	if r.Params.Name != "add" {
		return nil, &rpcError{-32602, "unknown tool " + strconv.Quote(r.Params.Name)}
	}
	a, b := r.Params.Arguments.A, r.Params.Arguments.B
	switch {
	case a == nil || b == nil:
		return &toolResult{Content: []text{{"text", "a and b are required"}}, IsError: true}, nil
	case *b < 0:
		return &toolResult{Content: []text{{"text", "b must be at least 0"}}, IsError: true}, nil
	}
	n := *a + *b
	return &toolResult{Content: []text{{"text", strconv.Itoa(n)}}, StructuredContent: sum{n}}, nil
}
