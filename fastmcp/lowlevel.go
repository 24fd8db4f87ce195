package fastmcp

import "github.com/fastmcp-go/fastmcp/lowlevel"

// The low-level names a fastmcp user needs for middleware and custom
// methods (Server.Lowlevel) are aliases of package lowlevel's, whose doc
// comments state their contract; every alias below comes from lowlevel,
// so go doc sends a reader to one package.

// Request is one incoming JSON-RPC request or notification as the low-level
// method table sees it: its method, raw params (a json.RawMessage) and the
// session it arrived on. Middleware and low-level handlers receive it. It
// is lowlevel.Request.
type Request = lowlevel.Request

// Handler serves one method of the low-level method table (see
// Server.Lowlevel): its result is encoded as the response's result, and an
// error wrapping a *protocol.Error keeps its code. It is lowlevel.Handler,
// whose doc states the contract (concurrency, panics, notifications).
type Handler = lowlevel.Handler

// HandlerFunc adapts a function to a Handler. It is lowlevel.HandlerFunc.
type HandlerFunc = lowlevel.HandlerFunc

// Middleware wraps the Handler of every method, built-in ones and those
// registered with Tool, Resource and Prompt included. Install it with
// s.Lowlevel().Use; the first one installed runs outermost:
//
//	s.Lowlevel().Use(func(next fastmcp.Handler) fastmcp.Handler {
//		return fastmcp.HandlerFunc(func(ctx context.Context, req *fastmcp.Request) (any, error) {
//			start := time.Now()
//			res, err := next.Handle(ctx, req)
//			log.Printf("%s took %v", req.Method, time.Since(start))
//			return res, err
//		})
//	})
//
// It is lowlevel.Middleware.
type Middleware = lowlevel.Middleware
