package protocol

import (
	"errors"
	"fmt"
	"testing"
)

// TestIsResourceNotFound: both eras' not-found answers for the uri are
// recognised, wrapped or not; an invalid-params error about something
// else, or about another uri, is not.
func TestIsResourceNotFound(t *testing.T) {
	const uri = "config://nope"
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"legacy", Legacy.ResourceNotFound(uri), true},
		{"modern", Modern.ResourceNotFound(uri), true},
		{"modern, wrapped", fmt.Errorf("reading: %w", Modern.ResourceNotFound(uri)), true},
		{"modern, another uri", Modern.ResourceNotFound("config://other"), false},
		{"invalid params without data", NewError(CodeInvalidParams, "uri is required"), false},
		{"invalid params, other data", NewError(CodeInvalidParams, "bad").WithData(map[string]string{"field": "uri"}), false},
		{"internal error", ErrInternal, false},
		{"not a protocol error", errors.New("Resource not found"), false},
		{"nil", nil, false},
	} {
		if got := IsResourceNotFound(tc.err, uri); got != tc.want {
			t.Errorf("%s: IsResourceNotFound = %v, want %v", tc.name, got, tc.want)
		}
	}
}
