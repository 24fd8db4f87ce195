package client_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/lowlevel"
)

// TestCallCustomMethodSameOnBothEras: Client.Call hands back what a custom
// low-level method's handler returned, on 2025-11-25 and 2026-07-28 alike:
// the resultType and the server identity that 2026-07-28 adds to every
// result are not in it, while the handler's own _meta entries are.
func TestCallCustomMethodSameOnBothEras(t *testing.T) {
	s := newServer()
	s.Lowlevel().HandleFunc("x/echo", func(_ context.Context, req *lowlevel.Request) (any, error) {
		// On 2026-07-28 the params carry the client's _meta too: decode
		// into a struct, which ignores it.
		var p struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, err
		}
		return map[string]string{"text": p.Text}, nil
	})
	s.Lowlevel().HandleFunc("x/meta", func(context.Context, *lowlevel.Request) (any, error) {
		return json.RawMessage(`{"a":1,"_meta":{"k":"v"}}`), nil
	})
	s.Lowlevel().HandleFunc("x/typed", func(context.Context, *lowlevel.Request) (any, error) {
		return json.RawMessage(`{"resultType":"custom","b":2}`), nil
	})
	s.Lowlevel().HandleFunc("x/empty", func(context.Context, *lowlevel.Request) (any, error) {
		return nil, nil
	})
	bothEras(t, func(t *testing.T, era client.Option, _ bool) {
		c := connect(t, s, era)
		ctx := ctxT(t)

		got := map[string]string{}
		if err := c.Call(ctx, "x/echo", map[string]string{"text": "hi"}, &got); err != nil {
			t.Fatalf("Call x/echo into a map[string]string: %v", err)
		}
		if want := map[string]string{"text": "hi"}; !reflect.DeepEqual(got, want) {
			t.Errorf("x/echo = %v, want %v", got, want)
		}

		for _, tc := range []struct {
			method, want string
		}{
			{"x/echo", `{"text":"hi"}`},
			{"x/meta", `{"a":1,"_meta":{"k":"v"}}`},
			{"x/typed", `{"resultType":"custom","b":2}`},
			{"x/empty", `{}`},
		} {
			var raw json.RawMessage
			if err := c.Call(ctx, tc.method, map[string]string{"text": "hi"}, &raw); err != nil {
				t.Fatalf("Call %s: %v", tc.method, err)
			}
			var g, w any
			if err := json.Unmarshal(raw, &g); err != nil {
				t.Fatalf("%s: result %s: %v", tc.method, raw, err)
			}
			if err := json.Unmarshal([]byte(tc.want), &w); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s: result %s, want %s", tc.method, raw, tc.want)
			}
		}
	})
}
