package fastmcp

import (
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/session"
)

// Request is one incoming JSON-RPC request or notification as the low-level
// method table sees it: its method, raw params (a json.RawMessage) and the
// session it arrived on. Middleware and low-level handlers receive it.
type Request = lowlevel.Request

// Handler serves one method of the low-level method table (see
// Server.Lowlevel): its result is encoded as the response's result, and an
// error wrapping a *protocol.Error keeps its code.
type Handler = lowlevel.Handler

// HandlerFunc adapts a function to a Handler.
type HandlerFunc = session.HandlerFunc

// Middleware wraps the Handler of every method, built-in ones and those
// registered with AddTool, AddResource and AddPrompt included. Install it
// with s.Lowlevel().Use; the first one installed runs outermost:
//
//	s.Lowlevel().Use(func(next fastmcp.Handler) fastmcp.Handler {
//		return fastmcp.HandlerFunc(func(ctx context.Context, req *fastmcp.Request) (any, error) {
//			start := time.Now()
//			res, err := next.Handle(ctx, req)
//			log.Printf("%s took %v", req.Method, time.Since(start))
//			return res, err
//		})
//	})
type Middleware = lowlevel.Middleware
