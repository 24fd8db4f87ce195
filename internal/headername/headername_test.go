package headername

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct{ name, err string }{
		{"Region", ""},
		{"x-Trace_ID.v2", ""},
		{"!#$%&'*+-.^_`|~", ""},
		{"", "is empty"},
		{"has space", `contains ' '`},
		{"colon:", `contains ':'`},
		{"é", `contains 'é'`},
	} {
		err := Check(tc.name)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("Check(%q) = %v, want %q", tc.name, err, tc.err)
		}
	}
}
