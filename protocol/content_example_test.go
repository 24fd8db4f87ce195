package protocol_test

import (
	"fmt"

	"github.com/fastmcp-go/fastmcp/protocol"
)

func ExampleCallToolResult() {
	res := &protocol.CallToolResult{
		Content: []protocol.Content{
			&protocol.TextContent{Text: "72°F and sunny"},
			&protocol.ImageContent{Data: []byte("\x89PNG"), MIMEType: "image/png"},
		},
		StructuredContent: []byte(`{"temperature":72}`),
	}
	b, err := protocol.Marshal(res)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s\n", b)

	var back protocol.CallToolResult
	if err := protocol.Unmarshal(b, &back); err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range back.Content {
		switch c := c.(type) {
		case *protocol.TextContent:
			fmt.Println("text:", c.Text)
		case *protocol.ImageContent:
			fmt.Println("image:", c.MIMEType, len(c.Data), "bytes")
		}
	}
	// Output:
	// {"content":[{"type":"text","text":"72°F and sunny"},{"type":"image","data":"iVBORw==","mimeType":"image/png"}],"structuredContent":{"temperature":72}}
	// text: 72°F and sunny
	// image: image/png 4 bytes
}
