// Package cursor encodes the pagination cursors of the lists a fastmcp
// server serves (tools, prompts, resources, templates, skills): a cursor
// names the key of the last item listed, so that items added or removed
// between two pages never shift the next one. Clients treat it as opaque.
package cursor

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/fastmcp-go/fastmcp/protocol"
)

const prefix = "after:"

// Encode returns the cursor of the page that follows the item with key.
func Encode(key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(prefix + key))
}

// Decode returns the key a cursor names. A cursor Encode did not make is
// an error matching protocol.ErrInvalidParams.
func Decode(c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), prefix) {
		return "", fmt.Errorf("%w: invalid cursor %q", protocol.ErrInvalidParams, c)
	}
	return strings.TrimPrefix(string(b), prefix), nil
}
