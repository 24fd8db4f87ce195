package fastmcp

import (
	"context"
	"reflect"
	"testing"
)

// BenchmarkHandlerCall is the reflect call of a tool handler alone, for
// each kind of context it may take: the two should cost the same (a Value
// of dynamic type *Context passed as a context.Context made every call walk
// *Context's method set, about 1.5 µs more).
func BenchmarkHandlerCall(b *testing.B) {
	type args struct{ A, B int }
	arg := reflect.ValueOf(args{A: 1, B: 2})
	c := newContext(context.Background(), nil, nil, "tool", "add")
	for _, bc := range []struct {
		name string
		fn   any
	}{
		{"ctx=*Context", func(ctx *Context, in args) (int, error) { return in.A + in.B, nil }},
		{"ctx=context.Context", func(ctx context.Context, in args) (int, error) { return in.A + in.B, nil }},
	} {
		h, err := analyzeHandler(bc.fn, "tool", "add", "func(ctx *fastmcp.Context, in Args) (R, error)", true)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := h.call(c, arg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
