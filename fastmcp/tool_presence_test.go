package fastmcp_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
)

type presenceArgs struct {
	Limit int    `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=50"`
	Mode  string `json:"mode,omitempty" validate:"omitempty,oneof=fast slow"`
}

// TestToolArgumentPresence: a tool whose schema says "minimum": 1 and
// "enum": ["fast","slow"] for optional arguments never sees 0 or "" sent
// by the client; it sees the default when the argument is left out.
func TestToolArgumentPresence(t *testing.T) {
	t.Parallel()
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var got []presenceArgs
			s := newServer()
			s.Tool("search", func(in presenceArgs) (string, error) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, in)
				return "ok", nil
			})
			c := connect(t, s, era.opt)
			page, err := c.ListTools(ctxT(t), "")
			if err != nil {
				t.Fatal(err)
			}
			if s := string(page.Tools[0].InputSchema); !strings.Contains(s, `"minimum":1`) || !strings.Contains(s, `"enum":["fast","slow"]`) {
				t.Fatalf("input schema = %s", s)
			}
			tests := []struct {
				args    string
				wantErr string // "" if the handler runs
				want    presenceArgs
			}{
				{`{}`, "", presenceArgs{Limit: 10}},
				{`{"limit":null}`, "", presenceArgs{Limit: 10}},
				{`{"limit":7,"mode":"slow"}`, "", presenceArgs{Limit: 7, Mode: "slow"}},
				{`{"limit":0}`, "limit: must be >= 1", presenceArgs{}},
				{`{"mode":""}`, "mode: must be one of \"fast\", \"slow\"", presenceArgs{}},
			}
			for _, tc := range tests {
				mu.Lock()
				got = got[:0]
				mu.Unlock()
				res, err := c.CallTool(ctxT(t), "search", json.RawMessage(tc.args))
				if err != nil {
					t.Fatalf("%s: %v", tc.args, err)
				}
				mu.Lock()
				calls := append([]presenceArgs(nil), got...)
				mu.Unlock()
				if tc.wantErr != "" {
					if !res.IsError || !strings.Contains(textOf(t, res), tc.wantErr) || len(calls) != 0 {
						t.Errorf("%s: result %q (isError %v), handler saw %+v; want the error %q and no call", tc.args, textOf(t, res), res.IsError, calls, tc.wantErr)
					}
					continue
				}
				if res.IsError || len(calls) != 1 || calls[0] != tc.want {
					t.Errorf("%s: result %q (isError %v), handler saw %+v; want %+v", tc.args, textOf(t, res), res.IsError, calls, tc.want)
				}
			}
		})
	}
}

// TestCallToolStructArguments: the client encodes a struct of arguments as
// encoding/json does, so the tool's own argument struct, with omitempty
// fields left zero, is sent without them and gets the defaults, instead of
// being refused for a present 0.
func TestCallToolStructArguments(t *testing.T) {
	t.Parallel()
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		s := newServer()
		s.Tool("search", func(in presenceArgs) (presenceArgs, error) { return in, nil })
		c := connect(t, s, era)
		res, err := c.CallTool(ctxT(t), "search", presenceArgs{Mode: "fast"})
		if err != nil {
			t.Fatal(err)
		}
		var got presenceArgs
		if err := res.Structured(&got); err != nil {
			t.Fatalf("result %+v: %v", res, err)
		}
		if want := (presenceArgs{Limit: 10, Mode: "fast"}); got != want {
			t.Errorf("the tool got %+v, want %+v", got, want)
		}
	})
}
