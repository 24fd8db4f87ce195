// Package paramheader holds what the server and the client share about the
// Mcp-Param-* headers that mirror tool arguments marked x-mcp-header
// (SEP-2243, protocol 2026-07-28): the header prefix and how an argument is
// found in a tool call's arguments.
package paramheader

import (
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// Prefix starts the name of the HTTP header mirroring a tool parameter
// marked x-mcp-header.
const Prefix = "Mcp-Param-"

// ValueAt returns the JSON value at the chain of object keys path in args;
// a null value counts as absent.
func ValueAt(args jsontext.Value, path []string) (jsontext.Value, bool) {
	v := args
	for _, key := range path {
		if v.Kind() != '{' {
			return nil, false
		}
		var obj map[string]jsontext.Value
		if err := protocol.Unmarshal(v, &obj); err != nil {
			return nil, false
		}
		next, ok := obj[key]
		if !ok {
			return nil, false
		}
		v = next
	}
	if len(v) == 0 || v.Kind() == 'n' {
		return nil, false
	}
	return v, true
}

// PathString renders path as the dotted name used in error messages.
func PathString(path []string) string { return strings.Join(path, ".") }
