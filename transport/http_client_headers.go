package transport

import (
	"context"
	"net/http"
)

type headerKey struct{}

// WithHeader returns a ctx that makes the HTTP client transports add h to
// the HTTP request carrying a message written with it (for example the
// Mcp-Param-* headers of a tools/call). Values given here are added after
// HTTPClientOptions.Header. h must not be modified afterwards.
func WithHeader(ctx context.Context, h http.Header) context.Context {
	if prev, ok := ctx.Value(headerKey{}).(http.Header); ok {
		merged := prev.Clone()
		for k, vs := range h {
			merged[k] = append(merged[k], vs...)
		}
		h = merged
	}
	return context.WithValue(ctx, headerKey{}, h)
}

// headerFromContext returns the headers WithHeader added to ctx for an
// outgoing request, or nil. (A server handler reads the headers of the
// incoming request from session.Request.HTTP instead.)
func headerFromContext(ctx context.Context) http.Header {
	h, _ := ctx.Value(headerKey{}).(http.Header)
	return h
}

func addHeaders(dst, src http.Header) {
	for k, vs := range src {
		dst[http.CanonicalHeaderKey(k)] = append(dst[http.CanonicalHeaderKey(k)], vs...)
	}
}
