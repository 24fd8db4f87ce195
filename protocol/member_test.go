package protocol_test

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

func TestMember(t *testing.T) {
	for _, tc := range []struct {
		obj, name, want string
		ok              bool
	}{
		{`{"a":1,"b":{"c":[2]}}`, "b", `{"c":[2]}`, true},
		{`{"a" : "x\"y"}`, "a", `"x\"y"`, true},
		{`{"A":1}`, "a", "", false},       // names are case-sensitive
		{`{"b":{"a":1}}`, "a", "", false}, // top level only
		{`[{"a":1}]`, "a", "", false},
		{`{"a":`, "a", "", false},
		{``, "a", "", false},
	} {
		got, ok := protocol.Member([]byte(tc.obj), tc.name)
		if ok != tc.ok || string(got) != tc.want {
			t.Errorf("Member(%s, %q) = %s, %v; want %s, %v", tc.obj, tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
