package session

import (
	"context"
	"encoding/json"
)

// A NotifyObserver is told of a notification a session has sent: its
// method and encoded params (nil for none). ctx is the context it was sent
// with.
type NotifyObserver func(ctx context.Context, method string, params json.RawMessage)

type notifyObserverKey struct{}

// WithNotifyObserver returns a copy of ctx that makes Session.Notify report
// each notification sent with it, or with a context derived from it, to
// fn once it is written (as net/http/httptrace does for HTTP requests).
// Middleware gives it to a handler's context to see the progress and log
// notifications the request sends; tracing records them as span events.
// fn runs on the sending goroutine and must not block. An observer set on
// ctx already is replaced.
func WithNotifyObserver(ctx context.Context, fn NotifyObserver) context.Context {
	return context.WithValue(ctx, notifyObserverKey{}, fn)
}

// observeNotify reports a sent notification to ctx's observer, if any.
func observeNotify(ctx context.Context, method string, params json.RawMessage) {
	if fn, ok := ctx.Value(notifyObserverKey{}).(NotifyObserver); ok && fn != nil {
		fn(ctx, method, params)
	}
}
