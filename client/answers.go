package client

import (
	"encoding/json"
	"fmt"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// AcceptElicitation is the answer of a user who filled in the form of an
// elicitation: content (a struct or map, encoded with encoding/json as the
// JSON object of the form's fields, or a json.RawMessage; nil for no
// content, as in URL mode). An ElicitationHandler can return it directly:
//
//	return fastmcp.AcceptElicitation(map[string]any{"confirm": true})
//
// Fields the content leaves out are filled from the form's defaults. An
// error says content does not encode as a JSON object.
func AcceptElicitation(content any) (*ElicitResult, error) {
	res := &ElicitResult{Action: protocol.ElicitActionAccept}
	if content == nil {
		return res, nil
	}
	b, err := json.Marshal(content)
	if err != nil {
		return nil, fmt.Errorf("client: encoding the elicitation answer: %w", err)
	}
	if len(b) == 0 || b[0] != '{' {
		return nil, fmt.Errorf("client: an elicitation answer must encode as a JSON object, not %.40s", b)
	}
	res.Content = b
	return res, nil
}

// DeclineElicitation is the answer of a user who explicitly declined an
// elicitation.
func DeclineElicitation() *ElicitResult {
	return &ElicitResult{Action: protocol.ElicitActionDecline}
}

// CancelElicitation is the answer of a user who dismissed an elicitation
// without choosing (closed the dialog).
func CancelElicitation() *ElicitResult {
	return &ElicitResult{Action: protocol.ElicitActionCancel}
}
