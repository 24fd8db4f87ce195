package main

// server is one server program of the comparison.
type server struct {
	name string // the column
	dir  string // its main package, relative to the module
	path string // its Streamable HTTP endpoint
	dep  string // the SDK module whose version the column names, if any

	bin, stripped string // built binaries
	size, sizeS   int64  // their sizes
	version       string // dep's version in the binary
}

// servers are the columns, the floor first: the ratios are to it.
func servers() []*server {
	return []*server{
		{name: "floor", dir: "./servers/floor", path: "/mcp"},
		{name: "fastmcp", dir: "./servers/fastmcp", path: "/mcp"},
		// NewStreamableHTTPHandler serves every path; /mcp is the usual one.
		{name: "go-sdk", dir: "./servers/gosdk", path: "/mcp", dep: "github.com/modelcontextprotocol/go-sdk"},
		{name: "mcp-go", dir: "./servers/mcpgo", path: "/mcp", dep: "github.com/mark3labs/mcp-go"},
	}
}
