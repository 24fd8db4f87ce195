package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// admitCall applies the lifecycle rules and the bounds to an incoming call
// and registers it as in flight. It returns the job that serves it, or
// false when the call has been answered already (an error, a legacy ping)
// or dropped (the session ended). b is the batch the call came in, if any:
// its answer goes there, whatever happens to it.
func (s *Session) admitCall(m *protocol.Request, b *batchReply) (job, bool) {
	meta, err := m.Meta()
	if err != nil {
		s.respondError(b, m.ID, protocol.Errorf(protocol.CodeInvalidParams, "Invalid params: _meta: %v", err))
		return job{}, false
	}
	// The request and its response in one allocation.
	a := &struct {
		req  Request
		resp protocol.Response
	}{req: Request{Session: s, ID: m.ID, Method: m.Method, Params: m.Params, Meta: meta, HTTP: httpInfo(m)}}
	req := &a.req
	if perr := s.admit(req); perr != nil {
		s.respondError(b, m.ID, perr)
		return job{}, false
	}
	if req.Method == protocol.MethodPing && !req.Era.Dropped(protocol.MethodPing) {
		a.resp = protocol.Response{ID: m.ID, Result: emptyObject}
		s.answer(b, &a.resp)
		return job{}, false
	}
	if s.draining.Load() {
		s.respondError(b, m.ID, protocol.NewError(protocol.CodeInternalError, "Internal error: the server is shutting down"))
		return job{}, false
	}
	if s.outstanding.Add(1) > s.maxQueued {
		s.requestDone()
		s.respondError(b, m.ID, protocol.NewError(protocol.CodeInternalError, "Internal error: server busy, too many requests in flight"))
		return job{}, false
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.requestDone()
		if b != nil {
			b.add(nil)
		}
		return job{}, false
	}
	if _, dup := s.inflight[m.ID]; dup {
		s.mu.Unlock()
		s.requestDone()
		s.respondError(b, m.ID, protocol.Errorf(protocol.CodeInvalidRequest, "Invalid Request: id %s is already in use by a request in flight", m.ID.Raw()))
		return job{}, false
	}
	// Not a child of s.ctx, which has no values: shutdown cancels what is
	// in flight itself, sparing every request the registration with (and
	// removal from) the parent, under the parent's lock. The related ctx,
	// parent of the cancellable one, serves the final write.
	related := transport.WithRelatedRequest(context.Background(), m.ID)
	ctx, cancel := context.WithCancelCause(related)
	s.inflight[m.ID] = cancel
	s.mu.Unlock()
	return job{ctx: ctx, related: related, cancel: cancel, req: req, resp: &a.resp, batch: b}, true
}

var emptyObject = json.RawMessage("{}")

// admit applies the lifecycle rules to an incoming call and settles which
// revision it is served under. It returns the error to answer with, if any.
func (s *Session) admit(req *Request) *protocol.Error {
	if v := req.Meta.ProtocolVersion; v != "" {
		if !protocol.IsSupported(v) {
			return unsupportedVersion(v)
		}
		if protocol.EraOf(v) == protocol.Modern {
			if req.Meta.ClientCapabilities == nil {
				return protocol.Errorf(protocol.CodeInvalidParams,
					"Invalid params: params._meta must carry %s (the client's capabilities for this request; {} for none)", protocol.MetaClientCapabilities)
			}
			req.Era = protocol.Modern
			req.Version = v
			return nil
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	req.Version = s.version
	if s.role != RoleServer {
		return nil
	}
	switch {
	case req.Method == protocol.MethodInitialize:
		if s.state != stateNew {
			return protocol.NewError(protocol.CodeInvalidRequest, "Invalid Request: the session is already initialized")
		}
		var p protocol.InitializeParams
		if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &p); err != nil {
			return protocol.Errorf(protocol.CodeInvalidParams, "Invalid params: initialize: %v", err)
		}
		if p.ProtocolVersion == "" {
			return protocol.NewError(protocol.CodeInvalidParams, "Invalid params: initialize: missing protocolVersion")
		}
		s.version = protocol.Negotiate(p.ProtocolVersion)
		caps := p.Capabilities
		s.clientCap = &caps
		info := p.ClientInfo
		s.client = &info
		s.state = stateInitialized
		req.Version = s.version
		return nil
	case req.Method == protocol.MethodPing:
		return nil
	case s.state == stateNew:
		return protocol.Errorf(protocol.CodeInvalidRequest,
			"Invalid Request: %s before initialize: send initialize first (or, for protocol %s, put the protocol version and client capabilities in params._meta)",
			req.Method, protocol.LatestVersion)
	}
	return nil
}

func unsupportedVersion(v string) *protocol.Error {
	return protocol.NewError(protocol.CodeUnsupportedProtocolVersion, "Unsupported protocol version").
		WithData(map[string]any{"supported": protocol.SupportedVersions(), "requested": v})
}

// serve runs the handler for one call and answers it.
func (s *Session) serve(j job) {
	ctx, cancel, req := j.ctx, j.cancel, j.req
	defer s.requestDone()
	defer cancel(context.Canceled)
	var (
		result any
		err    error
	)
	if ctx.Err() == nil {
		result, err = s.invoke(ctx, req)
	} else {
		err = context.Cause(ctx)
	}
	s.mu.Lock()
	delete(s.inflight, req.ID)
	s.mu.Unlock()
	cause := context.Cause(ctx)
	if errors.Is(cause, ErrCancelledByPeer) || errors.Is(cause, ErrClosed) {
		if errors.Is(cause, ErrCancelledByPeer) {
			s.logger.Debug("dropping response to cancelled request", "id", req.ID.String(), "method", req.Method)
		}
		if j.batch != nil {
			j.batch.add(nil) // no response, but one fewer to wait for
		}
		return
	}
	resp := j.resp // allocated with the request
	resp.ID = req.ID
	if err != nil {
		resp.Error = protocol.ToWire(err)
	} else if resp.Result, err = EncodeResult(result); err != nil {
		s.logger.Error("encoding result failed", "method", req.Method, "id", req.ID.String(), "error", err)
		resp.Error = protocol.NewError(protocol.CodeInternalError, "Internal error: the result could not be encoded")
	}
	if j.batch != nil {
		j.batch.add(resp)
		return
	}
	if req.Method == protocol.MethodInitialize && resp.Error == nil && s.role == RoleServer {
		s.settled(req.Version)
	}
	s.write(j.related, resp)
}

// invoke calls the handler, turning a panic into an internal error.
func (s *Session) invoke(ctx context.Context, req *Request) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.logger.Error("handler panicked", "method", req.Method, "id", req.ID.String(), "panic", r, "stack", string(debug.Stack()))
			result, err = nil, protocol.NewError(protocol.CodeInternalError, "Internal error: the handler failed")
		}
	}()
	if s.handler == nil {
		return nil, fmt.Errorf("%w: %s", protocol.ErrMethodNotFound, req.Method)
	}
	return s.handler.Handle(ctx, req)
}

// EncodeResult encodes a handler's result: nil becomes {}, a json.RawMessage
// (or a jsontext.Value) is used as is, anything else is encoded as JSON.
func EncodeResult(v any) (json.RawMessage, error) {
	switch r := v.(type) {
	case nil:
		return emptyObject, nil
	case json.RawMessage:
		if len(r) == 0 {
			return emptyObject, nil
		}
		return r, nil
	case jsontext.Value:
		if len(r) == 0 {
			return emptyObject, nil
		}
		return json.RawMessage(r), nil
	}
	return protocol.Marshal(v)
}
