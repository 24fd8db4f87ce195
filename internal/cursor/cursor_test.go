package cursor_test

import (
	"errors"
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/cursor"
	"github.com/fastmcp-go/fastmcp/protocol"
)

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, key := range []string{"", "add", "skill://pdf-processing/SKILL.md", "ünï/cödé"} {
		got, err := cursor.Decode(cursor.Encode(key))
		if err != nil || got != key {
			t.Errorf("Decode(Encode(%q)) = %q, %v", key, got, err)
		}
	}
	for _, bad := range []string{"!!", "YWJj" /* "abc": no prefix */} {
		if _, err := cursor.Decode(bad); !errors.Is(err, protocol.ErrInvalidParams) {
			t.Errorf("Decode(%q) = %v, want invalid params", bad, err)
		}
	}
}
