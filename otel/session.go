package otel

import (
	"context"
	"errors"
	"io"

	"github.com/fastmcp-go/fastmcp/session"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
)

// sessionErrorType is the error.type of a session that ended with err: ""
// for an orderly end (closed by either side, the peer's input ending, the
// server shutting down), _OTHER for any other failure (a broken
// transport).
func sessionErrorType(err error) string {
	switch {
	case err == nil, errors.Is(err, session.ErrClosed), errors.Is(err, io.EOF), errors.Is(err, context.Canceled):
		return ""
	}
	return semconv.ErrorTypeOther.Value.AsString()
}
