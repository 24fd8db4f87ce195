package session

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/callopt"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// A CallOption configures one outgoing call. It is the same type as
// client.CallOption, so the options of either package work with both:
// WithMeta, for one, is declared in fastmcp and honoured here, and
// client.Client.CallTool takes WithTimeout.
type CallOption = callopt.Option

// WithProgress asks the peer for progress notifications: the call's params
// get a _meta.progressToken, and fn receives each notifications/progress
// carrying it. fn runs on the session's reading goroutine, in arrival order,
// before the call returns; it must not block.
func WithProgress(fn func(*protocol.ProgressParams)) CallOption {
	return func(c *callopt.Config) { c.Progress = fn }
}

// WithTimeout bounds this call, overriding Options.CallTimeout.
func WithTimeout(d time.Duration) CallOption {
	return func(c *callopt.Config) { c.Timeout = d }
}

// WithIDReport has fn told the id the call's request is sent with, once
// the session has numbered it and before it is written: for telemetry
// (jsonrpc.request.id). fn runs on the calling goroutine.
func WithIDReport(fn func(protocol.ID)) CallOption {
	return func(c *callopt.Config) { c.OnID = fn }
}

// Call sends a request and waits for its response, decoding the result into
// result (which may be nil to discard it, or a *json.RawMessage to keep it
// raw). params is encoded as JSON; a json.RawMessage is sent as is; nil sends
// no params.
//
// A JSON-RPC error from the peer is returned as a *protocol.Error. When the
// transport loses the answer (a broken connection, an answer over the size
// limit), the error matches transport.ErrTransport (and, for the size,
// transport.ErrMessageTooLarge), never a protocol error code. When ctx
// is done first, Call sends notifications/cancelled for the request and
// returns ctx.Err(). When the timeout elapses it does the same and returns an
// error matching ErrTimeout and context.DeadlineExceeded. When the session
// ends, or the peer's input does (no response can arrive any more), it
// returns an error matching ErrClosed, with the reason wrapped beside it.
//
// A ctx carrying a related request (a handler's ctx) sends the request on
// that request's stream.
func (s *Session) Call(ctx context.Context, method string, params, result any, opts ...CallOption) error {
	cfg := callopt.Config{Timeout: s.timeout}
	if len(opts) > 0 {
		cfg = callopt.Apply(cfg, opts)
	}
	raw, err := EncodeParams(params)
	if err != nil {
		return fmt.Errorf("session: encoding %s params: %w", method, err)
	}
	if len(cfg.Meta) > 0 {
		if raw, err = protocol.MergeMeta(raw, cfg.Meta); err != nil {
			return fmt.Errorf("session: %s: %w", method, err)
		}
	}
	id := s.newID()
	if cfg.OnID != nil {
		cfg.OnID(id)
	}
	if cfg.Progress != nil {
		if raw, err = protocol.SetMeta(raw, protocol.MetaProgressToken, id); err != nil {
			return fmt.Errorf("session: %s: %w", method, err)
		}
	}
	c := &call{method: method, done: make(chan struct{})}
	s.mu.Lock()
	if s.closed || s.inputErr != nil {
		// Ended, or the peer's input has: no response could arrive.
		s.mu.Unlock()
		return s.closedError()
	}
	s.pending[id] = c
	if cfg.Progress != nil {
		s.progress[id] = cfg.Progress
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, id)
		delete(s.progress, id)
		s.mu.Unlock()
	}()

	if err := s.conn.Write(ctx, &protocol.Request{ID: id, Method: method, Params: raw}); err != nil {
		return s.sendFailed(ctx, err, method, func(reason string) { s.cancelCall(ctx, id, reason) })
	}
	var timer <-chan time.Time
	if cfg.Timeout > 0 {
		t := time.NewTimer(cfg.Timeout)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-c.done:
		return c.outcome(result)
	case <-ctx.Done():
		s.cancelCall(ctx, id, context.Cause(ctx).Error())
		return ctx.Err()
	case <-timer:
		s.cancelCall(ctx, id, "timeout")
		return fmt.Errorf("%w: %s after %v: %w", ErrTimeout, method, cfg.Timeout, context.DeadlineExceeded)
	case <-s.done:
		return s.callEnded(c, result)
	case <-s.readerDone:
		// The peer's input ended (or the session did): every response
		// that came was delivered before.
		return s.callEnded(c, result)
	}
}

// sendFailed is what Call or Batch returns when writing the request(s)
// of what failed with err: the session's end, ctx's error (after abandon
// has told the peer: the request may have reached it before the write was
// interrupted, as an HTTP transport's Write waits for the answer's
// headers), or the transport's error.
func (s *Session) sendFailed(ctx context.Context, err error, what string, abandon func(reason string)) error {
	if s.Err() != nil {
		return s.closedError()
	}
	if ctx.Err() != nil {
		abandon(context.Cause(ctx).Error())
		return ctx.Err()
	}
	return fmt.Errorf("session: sending %s: %w", what, err)
}

// callEnded is what Call returns when the session, or its input, ended
// while c was pending.
func (s *Session) callEnded(c *call, result any) error {
	// A response may have raced with the end of the session.
	select {
	case <-c.done:
		return c.outcome(result)
	default:
	}
	return s.closedError()
}

// outcome returns what a call that is done returns: the peer's error, the
// transport's failure, or the result decoded into result.
func (c *call) outcome(result any) error {
	switch {
	case c.err != nil:
		return fmt.Errorf("session: %s: %w", c.method, c.err)
	case c.resp.Error != nil:
		return c.resp.Error
	}
	return DecodeResult(c.method, c.resp.Result, result)
}

// DecodeResult decodes the raw result of a call to method into result, as
// Call does: nil discards it, a *json.RawMessage (or *jsontext.Value)
// receives it as is, anything else is decoded strictly (protocol.Unmarshal).
func DecodeResult(method string, raw json.RawMessage, result any) error {
	switch r := result.(type) {
	case nil:
		return nil
	case *json.RawMessage:
		*r = raw
		return nil
	case *jsontext.Value:
		*r = jsontext.Value(raw)
		return nil
	}
	if err := protocol.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("session: decoding %s result: %w", method, err)
	}
	return nil
}

// cancelCall tells the peer that the call id is abandoned.
func (s *Session) cancelCall(ctx context.Context, id protocol.ID, reason string) {
	s.mu.Lock()
	// Remember the id for a while: the peer may have answered before it
	// saw the cancellation, and that late response is expected.
	s.abandoned[s.abandonedNext%len(s.abandoned)] = id
	s.abandonedNext++
	s.mu.Unlock()
	p := protocol.CancelledParams{RequestID: id, Reason: reason}
	raw, err := protocol.Marshal(&p)
	if err != nil {
		return
	}
	s.write(context.WithoutCancel(ctx), &protocol.Request{Method: protocol.NotificationCancelled, Params: raw})
}

// Notify sends a notification. A ctx carrying a related request (a
// handler's ctx) sends it on that request's stream.
func (s *Session) Notify(ctx context.Context, method string, params any) error {
	raw, err := EncodeParams(params)
	if err != nil {
		return fmt.Errorf("session: encoding %s params: %w", method, err)
	}
	if s.Err() != nil {
		return s.closedError()
	}
	if err := s.conn.Write(ctx, &protocol.Request{Method: method, Params: raw}); err != nil {
		if s.Err() != nil {
			return s.closedError()
		}
		return fmt.Errorf("session: sending %s: %w", method, err)
	}
	observeNotify(ctx, method, raw)
	return nil
}

// EncodeParams encodes request or notification params as Call and Notify
// send them: raw JSON (json.RawMessage, jsontext.Value) is kept as it is,
// and nil gives no params.
func EncodeParams(params any) (json.RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return p, nil
	case jsontext.Value:
		return json.RawMessage(p), nil
	}
	return protocol.Marshal(params)
}
