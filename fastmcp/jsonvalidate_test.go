package fastmcp_test

// The tests register tools with InputSchema, whose hand-written schemas
// the full JSON Schema engine checks: a program links it by this import.
import _ "github.com/fastmcp-go/fastmcp/schema/jsonvalidate"
