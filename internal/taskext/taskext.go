// Package taskext holds the two checks of the tasks extension
// (io.modelcontextprotocol/tasks) that every server makes, whether or not
// it runs tasks: whether a client declared the extension, and the error
// refusing a request that needs it. The task runtime (internal/taskrun)
// makes the same checks; both use this package, so that a server without
// tasks links none of the runtime.
package taskext

import (
	"encoding/json"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// Declared reports whether the client capabilities declare the tasks
// extension; caps may be nil.
func Declared(caps *protocol.ClientCapabilities) bool {
	if caps == nil {
		return false
	}
	_, ok := caps.Extensions[protocol.ExtensionTasks]
	return ok
}

// Missing returns the -32021 error naming the tasks extension; why says
// what needs it.
func Missing(why string) *protocol.Error {
	return protocol.NewError(protocol.CodeMissingRequiredClientCapability,
		"Missing required client capability: "+protocol.ExtensionTasks+" ("+why+")").
		WithData(protocol.MissingRequiredClientCapabilityData{RequiredCapabilities: protocol.ClientCapabilities{
			Extensions: map[string]json.RawMessage{protocol.ExtensionTasks: json.RawMessage("{}")},
		}})
}
