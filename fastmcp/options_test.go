package fastmcp_test

import (
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

type optInner struct {
	N int `json:"n"`
}

type optArgs struct {
	In optInner `json:"in"`
}

// TestSchemaOptionsAtBothLevels: Strict and KeepRefs given to New set the
// default for every tool; given to a tool they override it.
func TestSchemaOptionsAtBothLevels(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.Strict(true), fastmcp.KeepRefs(true))
	h := func(in optArgs) int { return in.In.N }
	s.Tool("default", h)
	s.Tool("override", h, fastmcp.Strict(false), fastmcp.KeepRefs(false))
	c := connect(t, s)
	page, err := c.ListTools(ctxT(t), "")
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]string{}
	for _, tool := range page.Tools {
		schemas[tool.Name] = string(tool.InputSchema)
	}
	for _, tc := range []struct {
		tool           string
		strict, hasRef bool
	}{
		{"default", true, true},
		{"override", false, false},
	} {
		got := schemas[tc.tool]
		if strings.Contains(got, `"additionalProperties":false`) != tc.strict || strings.Contains(got, `"$defs"`) != tc.hasRef {
			t.Errorf("%s: schema %s, want strict %v, $defs %v", tc.tool, got, tc.strict, tc.hasRef)
		}
		res, err := c.CallTool(ctxT(t), tc.tool, map[string]any{"in": map[string]any{"n": 1}, "extra": true})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError != tc.strict {
			t.Errorf("%s: a call with an unknown field: isError %v, want %v", tc.tool, res.IsError, tc.strict)
		}
	}
}
