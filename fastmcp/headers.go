package fastmcp

import (
	"fmt"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/paramheader"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// checkParamHeaders verifies, for a modern request over HTTP, that every
// tool parameter marked x-mcp-header is mirrored in its Mcp-Param-* header
// with the same value: intermediaries route on those headers, so a request
// whose headers and body disagree is refused with HeaderMismatch (-32020,
// HTTP 400). A parameter absent (or null) in the arguments must have no
// header; one present must have its header.
func checkParamHeaders(req *session.Request, headers []schema.Header, args jsontext.Value) error {
	if !req.Era.RoutingHeaders() || len(headers) == 0 {
		return nil
	}
	info := req.HTTP
	if info == nil {
		return nil // not HTTP: there are no headers to check
	}
	for _, h := range headers {
		name := paramheader.Prefix + h.Name
		values := info.Header.Values(name)
		body, present := paramheader.ValueAt(args, h.Path)
		switch {
		case !present && len(values) == 0:
			continue
		case !present:
			return headerMismatch("header %s is set but argument %s is absent", name, paramheader.PathString(h.Path))
		case len(values) == 0:
			return headerMismatch("argument %s is set but header %s is missing", paramheader.PathString(h.Path), name)
		case len(values) > 1:
			return headerMismatch("header %s is repeated", name)
		}
		got, err := transport.DecodeHeaderValue(values[0])
		if err != nil {
			return headerMismatch("header %s: %v", name, err)
		}
		want, ok := headerText(body)
		if !ok {
			return headerMismatch("argument %s is not a string, integer or boolean", paramheader.PathString(h.Path))
		}
		if got != want {
			return headerMismatch("header %s does not match argument %s", name, paramheader.PathString(h.Path))
		}
	}
	return nil
}

func headerMismatch(format string, args ...any) error {
	return fmt.Errorf("%w: %s", protocol.ErrHeaderMismatch, fmt.Sprintf(format, args...))
}

// headerText renders a primitive argument as its header value: a string as
// is, a number as written, a boolean as true or false.
func headerText(v jsontext.Value) (string, bool) {
	switch v.Kind() {
	case '"':
		var s string
		if err := protocol.Unmarshal(v, &s); err != nil {
			return "", false
		}
		return s, true
	case '0':
		if _, err := strconv.ParseInt(string(v), 10, 64); err != nil {
			return "", false
		}
		return string(v), true
	case 't', 'f':
		return string(v), true
	}
	return "", false
}

// matchParamHeaders is the step of a tool with x-mcp-header parameters: see
// checkParamHeaders.
func matchParamHeaders(headers []schema.Header) callStep {
	return func(cl *call, next runFunc) (any, error) {
		if err := checkParamHeaders(cl.req(), headers, cl.params.Arguments); err != nil {
			return nil, err
		}
		return next(cl)
	}
}
