package fastmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/authinfo"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// Context is what a handler gets for one request: it is a context.Context
// (cancelled when the client cancels the request or the session ends) and it
// talks back to the client — log messages, progress, and, on clients that
// allow them, sampling, elicitation, roots — and reads the server's other
// resources.
//
// A Context lives for one request: do not keep it after the handler returns.
// Its methods are safe to call from goroutines the handler starts and waits
// for.
type Context struct {
	context.Context
	srv    *Server
	req    *session.Request
	kind   string // "tool", "resource", "prompt", "completion"
	name   string // the tool's, resource's or prompt's name
	logger *slog.Logger
	in     *inputs  // multi round-trip state of a modern request
	task   taskCall // the task the call runs as (tools registered with TaskSupport); nil for others
}

func newContext(ctx context.Context, srv *Server, req *session.Request, kind, name string) *Context {
	return &Context{Context: ctx, srv: srv, req: req, kind: kind, name: name}
}

// RequestID returns the JSON-RPC id of the request being served.
func (c *Context) RequestID() protocol.ID { return c.req.ID }

// Session returns the session the request arrived on. For a modern
// (2026-07-28) request over HTTP it lives only as long as the request.
func (c *Context) Session() *session.Session { return c.req.Session }

// Request returns the low-level request being served.
func (c *Context) Request() *session.Request { return c.req }

// HTTPRequest returns what the HTTP transport knows about the HTTP request
// that carried this request: its headers, the client's remote address, the
// Host it was sent to, the session id and the caller's principal (see
// HTTPPrincipal). It returns nil when the request did not come over HTTP
// (stdio, in-memory or command transports). The value is shared: do not
// modify it or its Header.
func (c *Context) HTTPRequest() *transport.HTTPRequestInfo { return c.req.HTTP }

// Auth returns the verified access token the request carried: its
// subject, client, scopes, expiry, audience and claims. It is nil when the
// server does not verify tokens (see the Auth option), and for requests
// that did not come over HTTP, such as stdio, where authorization does not
// apply.
func (c *Context) Auth() *authinfo.TokenInfo {
	if c.req.HTTP == nil || c.req.HTTP.Context == nil {
		return nil
	}
	return authinfo.FromContext(c.req.HTTP.Context)
}

// ProtocolVersion returns the protocol revision the request is served under.
func (c *Context) ProtocolVersion() string { return c.req.Version }

// ClientCapabilities returns the capabilities the client declared for this
// request. It never returns nil.
func (c *Context) ClientCapabilities() *protocol.ClientCapabilities {
	return c.req.ClientCapabilities()
}

// ClientInfo returns the client's self-description. It never returns nil.
func (c *Context) ClientInfo() *protocol.Implementation { return c.req.ClientInfo() }

// Logger returns the server's logger with the request's attributes (the
// tool, resource or prompt name and the request id). It writes only to the
// server's log, never to the client.
func (c *Context) Logger() *slog.Logger {
	if c.logger == nil {
		c.logger = c.srv.logger.With(c.kind, c.name, "request_id", c.req.ID.String())
	}
	return c.logger
}

// Debug logs at debug level; see Log.
func (c *Context) Debug(msg string, args ...any) { c.Log(protocol.LevelDebug, msg, args...) }

// Info logs at info level; see Log.
func (c *Context) Info(msg string, args ...any) { c.Log(protocol.LevelInfo, msg, args...) }

// Notice logs at notice level; see Log.
func (c *Context) Notice(msg string, args ...any) { c.Log(protocol.LevelNotice, msg, args...) }

// Warning logs at warning level; see Log.
func (c *Context) Warning(msg string, args ...any) { c.Log(protocol.LevelWarning, msg, args...) }

// Error logs at error level; see Log.
func (c *Context) Error(msg string, args ...any) { c.Log(protocol.LevelError, msg, args...) }

// Log sends a log message to the client (notifications/message) when its
// level is at or above the level the client asked for, and writes it to the
// server's logger. args are key/value pairs and slog.Attrs, as for slog: with
// none the message's data is the text; with some it is an object holding
// "msg" and each attribute.
//
// Inside a task (a tool registered with TaskSupport, once its call was answered
// with the task) the message goes to the server's logger only, with the
// task's id: the tasks extension carries no log messages.
func (c *Context) Log(level protocol.LoggingLevel, msg string, args ...any) {
	if c.task != nil {
		if id, ok := c.task.taskID(); ok {
			c.Logger().Log(c, slogLevel(level), msg, append(args, slog.String("task", id))...)
			return
		}
	}
	c.Logger().Log(c, slogLevel(level), msg, args...)
	min, ok := c.req.LogLevel()
	if !ok || !level.AtLeast(min) {
		return
	}
	raw, err := logData(msg, args)
	if err != nil {
		c.Logger().Warn("log data could not be encoded", "error", err)
		return
	}
	p := &protocol.LoggingMessageParams{Level: level, Logger: c.name, Data: json.RawMessage(raw)}
	if err := c.req.Session.Notify(c, protocol.NotificationMessage, p); err != nil {
		c.Logger().Debug("log notification not sent", "error", err)
	}
}

// logData is the data of a log notification: the message text alone, or,
// with attributes, an object holding "msg" and then each attribute in order.
func logData(msg string, args []any) (jsontext.Value, error) {
	if len(args) == 0 {
		return protocol.Marshal(msg)
	}
	r := slog.NewRecord(time.Time{}, slog.LevelInfo, msg, 0)
	r.Add(args...)
	var buf bytes.Buffer
	enc := jsontext.NewEncoder(&buf)
	if err := enc.WriteToken(jsontext.BeginObject); err != nil {
		return nil, err
	}
	write := func(k string, v any) error {
		if err := enc.WriteToken(jsontext.String(k)); err != nil {
			return err
		}
		b, err := protocol.Marshal(v)
		if err != nil {
			b, _ = protocol.Marshal(fmt.Sprint(v))
		}
		return enc.WriteValue(b)
	}
	if err := write("msg", msg); err != nil {
		return nil, err
	}
	seen := map[string]bool{"msg": true}
	var err error
	r.Attrs(func(a slog.Attr) bool {
		if seen[a.Key] {
			return true // duplicate names are not valid in the JSON we send
		}
		seen[a.Key] = true
		err = write(a.Key, attrValue(a.Value))
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	if err := enc.WriteToken(jsontext.EndObject); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(buf.Bytes()), nil
}

func attrValue(v slog.Value) any {
	v = v.Resolve()
	switch v.Kind() {
	case slog.KindGroup:
		m := map[string]any{}
		for _, a := range v.Group() {
			m[a.Key] = attrValue(a.Value)
		}
		return m
	case slog.KindDuration:
		return v.Duration().String()
	case slog.KindTime:
		return v.Time().Format(time.RFC3339Nano)
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return err.Error()
		}
		return v.Any()
	default:
		return v.Any()
	}
}

func slogLevel(l protocol.LoggingLevel) slog.Level {
	switch l {
	case protocol.LevelDebug:
		return slog.LevelDebug
	case protocol.LevelInfo, protocol.LevelNotice:
		return slog.LevelInfo
	case protocol.LevelWarning:
		return slog.LevelWarn
	default:
		return slog.LevelError
	}
}

// Progress reports progress on the request (notifications/progress) when
// the client asked for it with a progress token; otherwise it does nothing.
// progress should increase with every call; total is 0 when unknown.
//
// Inside a task (a tool registered with TaskSupport, once its call was answered
// with the task) nothing is sent: a non-empty message becomes the task's
// status message, and the progress is written to the server's logger at
// debug level, with the task's id.
func (c *Context) Progress(progress, total float64, message string) error {
	if c.task != nil && c.task.setStatus(message) {
		id, _ := c.task.taskID()
		c.Logger().Debug("progress", "task", id, "progress", progress, "total", total, "message", message)
		return nil
	}
	tok, ok := c.req.ProgressToken()
	if !ok {
		return nil
	}
	return c.req.Session.Notify(c, protocol.NotificationProgress, &protocol.ProgressParams{
		ProgressToken: tok, Progress: progress, Total: total, Message: message,
	})
}
