// Command floor100 is the floor of the process startup benchmark (package
// bench): a hand-written newline-delimited JSON-RPC loop that lists the
// same 100 tools as server100 from hand-written descriptors. It answers
// initialize and tools/list, ignores notifications, and stops when its
// input ends.
package main

import (
	"bufio"
	"os"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/bench/internal/floortools"
)

type request struct {
	ID     jsontext.Value `json:"id"`
	Method string         `json:"method"`
}

const initResult = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"floor","version":"1"}}`

func main() {
	// Startup: the map of descriptors and the tools/list answer, encoded once.
	tools := make(map[string]*floortools.Def, len(floortools.Tools))
	for i := range floortools.Tools {
		tools[floortools.Tools[i].Name] = &floortools.Tools[i]
	}
	encoded, err := floortools.ListResult()
	if err != nil {
		panic(err)
	}

	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	var req request
	for {
		line, err := in.ReadSlice('\n')
		if err != nil {
			out.Flush()
			return
		}
		req = request{}
		if err := json.Unmarshal(line, &req); err == nil && len(req.ID) > 0 {
			answer(out, &req, encoded)
		} // else a notification (or garbage): no answer
		if in.Buffered() == 0 {
			out.Flush()
		}
	}
}

// answer writes the response to req.
func answer(out *bufio.Writer, req *request, encoded []byte) {
	out.WriteString(`{"jsonrpc":"2.0","id":`)
	out.Write(req.ID)
	switch req.Method {
	case "initialize":
		out.WriteString(`,"result":` + initResult + "}\n")
	case "tools/list":
		out.WriteString(`,"result":`)
		out.Write(encoded)
		out.WriteString("}\n")
	default:
		out.WriteString(`,"error":{"code":-32601,"message":"Method not found"}}` + "\n")
	}
}
