package lowlevel_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestErrorsKeepTheirCode: a handler or middleware that returns one of
// lowlevel's errors, wrapped or made with NewError, has the request
// answered with its code, and the client matches it with errors.Is under
// either spelling (lowlevel's or protocol's).
func TestErrorsKeepTheirCode(t *testing.T) {
	t.Parallel()
	srv := newServer()
	srv.Use(func(next lowlevel.Handler) lowlevel.Handler {
		return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
			if req.Method == "x/guarded" {
				return nil, fmt.Errorf("%w: x/guarded needs a token", lowlevel.ErrInvalidRequest)
			}
			return next.Handle(ctx, req)
		})
	})
	srv.HandleFunc("x/busy", func(context.Context, *lowlevel.Request) (any, error) {
		return nil, lowlevel.NewError(-32001, "busy: try later")
	})
	srv.HandleFunc("x/bad", func(context.Context, *lowlevel.Request) (any, error) {
		return nil, fmt.Errorf("%w: no such thing", lowlevel.ErrInvalidParams)
	})
	cli := connect(t, srv, false)
	for _, tc := range []struct {
		method string
		want   *lowlevel.Error
		code   int64
		msg    string
	}{
		{"x/guarded", protocol.ErrInvalidRequest, protocol.CodeInvalidRequest, "Invalid Request: x/guarded needs a token"},
		{"x/busy", lowlevel.NewError(-32001, ""), -32001, "busy: try later"},
		{"x/bad", protocol.ErrInvalidParams, protocol.CodeInvalidParams, "Invalid params: no such thing"},
		{"x/none", lowlevel.ErrMethodNotFound, protocol.CodeMethodNotFound, ""},
	} {
		err := cli.Call(context.Background(), tc.method, nil, nil)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want an error matching code %d", tc.method, err, tc.want.Code)
			continue
		}
		e, ok := errors.AsType[*lowlevel.Error](err)
		if !ok || e.Code != tc.code || (tc.msg != "" && e.Message != tc.msg) {
			t.Errorf("%s: got %#v, want code %d message %q", tc.method, e, tc.code, tc.msg)
		}
	}
}
