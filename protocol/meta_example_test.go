package protocol_test

import (
	"encoding/json"
	"fmt"

	"github.com/fastmcp-go/fastmcp/protocol"
)

func ExampleParseRequestMeta() {
	params := json.RawMessage(`{"name":"get_weather","arguments":{"location":"New York"},
		"_meta":{"progressToken":17,"io.modelcontextprotocol/protocolVersion":"2026-07-28",
		"io.modelcontextprotocol/clientCapabilities":{},"traceparent":"00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"}}`)
	m, err := protocol.ParseRequestMeta(params)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.ProgressToken.Raw(), m.ProtocolVersion, m.LogLevel == "")
	fmt.Printf("%s\n", m.Other[protocol.MetaTraceParent])
	// Output:
	// 17 2026-07-28 true
	// "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01"
}

func ExampleSetMeta() {
	params := json.RawMessage(`{"name":"get_weather","_meta":{"progressToken":1}}`)
	params, err := protocol.SetMeta(params, protocol.MetaProtocolVersion, protocol.Version20260728)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s\n", params)
	result, _ := protocol.SetMeta(nil, protocol.MetaServerInfo, protocol.Implementation{Name: "weather", Version: "1.0.0"})
	fmt.Printf("%s\n", result)
	// Output:
	// {"name":"get_weather","_meta":{"progressToken":1,"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}
	// {"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"weather","version":"1.0.0"}}}
}
