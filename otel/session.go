package otel

import (
	"context"
	"errors"
	"io"

	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// sessionErrorType is the error.type of a session that ended with err: ""
// for an orderly end (closed by either side, the connection closed, the
// peer's input ending, the server shutting down), _OTHER for any other
// failure (a broken transport, a server process that died).
func sessionErrorType(err error) string {
	switch {
	case err == nil, errors.Is(err, session.ErrClosed), errors.Is(err, transport.ErrClosed),
		errors.Is(err, io.EOF), errors.Is(err, context.Canceled):
		return ""
	}
	return semconv.ErrorTypeOther.Value.AsString()
}
