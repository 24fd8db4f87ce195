package fastmcp

import (
	"context"
	"fmt"
	"reflect"
)

var (
	contextType    = reflect.TypeFor[*Context]()
	stdContextType = reflect.TypeFor[context.Context]()
	errorType      = reflect.TypeFor[error]()
)

// ctxKind says which context, if any, a handler takes first.
type ctxKind uint8

const (
	ctxNone ctxKind = iota
	ctxFastMCP
	ctxStd
)

// handlerFunc is a user's handler, checked once at registration.
type handlerFunc struct {
	fn      reflect.Value
	ctx     ctxKind
	in      reflect.Type // argument type (struct or *struct); nil when none
	out     reflect.Type // result type; nil when the handler returns only an error
	hasErr  bool
	display string // the handler's signature, for messages
}

// analyzeHandler checks fn's shape. kind and name ("tool", "add") and
// example (the recommended signature) make the error messages say how to fix
// a bad handler. allowArgs says whether an argument struct is accepted.
func analyzeHandler(fn any, kind, name, example string, allowArgs bool) (*handlerFunc, error) {
	if fn == nil {
		return nil, fmt.Errorf("fastmcp: %s %q: handler is nil: pass a function such as %s", kind, name, example)
	}
	v := reflect.ValueOf(fn)
	t := v.Type()
	h := &handlerFunc{fn: v, display: t.String()}
	fail := func(why string) error {
		return fmt.Errorf("fastmcp: %s %q: handler %s: %s: %s", kind, name, t, why, example)
	}
	if t.Kind() != reflect.Func {
		return nil, fail("not a function; pass a function")
	}
	if t.IsVariadic() {
		return nil, fail("variadic handlers are not supported")
	}
	i := 0
	if t.NumIn() > 0 {
		switch t.In(0) {
		case contextType:
			h.ctx, i = ctxFastMCP, 1
		case stdContextType:
			h.ctx, i = ctxStd, 1
		}
	}
	for j := i; j < t.NumIn(); j++ {
		if in := t.In(j); in == contextType || in == stdContextType {
			return nil, fail("the context comes first")
		}
	}
	switch rest := t.NumIn() - i; {
	case rest == 0:
	case rest == 1 && allowArgs:
		in := t.In(i)
		if !isStructish(in) {
			if in.Kind() == reflect.Map && in.Key().Kind() == reflect.String {
				h.in = in // used with a hand-written input schema
			} else {
				return nil, fail("put the arguments in a struct")
			}
		} else {
			h.in = in
		}
	case rest == 1:
		return nil, fail("takes an argument; a " + kind + " handler takes at most a context")
	default:
		if allowArgs {
			return nil, fail("put the arguments in a struct")
		}
		return nil, fail("too many parameters")
	}
	switch t.NumOut() {
	case 0:
		return nil, fail("returns nothing; return a result, an error, or both")
	case 1:
		if t.Out(0) == errorType {
			h.hasErr = true
		} else {
			h.out = t.Out(0)
		}
	case 2:
		if t.Out(1) != errorType {
			return nil, fail("the second result must be error")
		}
		h.out, h.hasErr = t.Out(0), true
	default:
		return nil, fail("returns too many values; return (R, error)")
	}
	return h, nil
}

func isStructish(t reflect.Type) bool {
	return t.Kind() == reflect.Struct || (t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct)
}

// call invokes the handler. arg is ignored when the handler takes no
// argument. It returns the result value (invalid when there is none) and
// the error.
func (h *handlerFunc) call(c *Context, arg reflect.Value) (out reflect.Value, err error) {
	var buf [2]reflect.Value
	in := buf[:0]
	switch h.ctx {
	case ctxFastMCP:
		in = append(in, reflect.ValueOf(c))
	case ctxStd:
		// A Value of the parameter's own (interface) type: one of dynamic
		// type *Context would make every Call check that *Context
		// implements context.Context, walking its method set (about
		// 1.5 µs a call, BenchmarkHandlerCall).
		std := context.Context(c)
		in = append(in, reflect.ValueOf(&std).Elem())
	}
	if h.in != nil {
		in = append(in, arg)
	}
	res := h.fn.Call(in)
	if h.hasErr {
		if e := res[len(res)-1]; !e.IsNil() {
			err = e.Interface().(error)
		}
	}
	if h.out != nil {
		out = res[0]
	}
	return out, err
}
