package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// newPost encodes m and builds the POST carrying it, bound to the client
// (see bind): its context, hr.Context(), ends when release is called or
// the client closes. req is m when it is a request or notification. On
// success the caller owns release; on failure it has been called. modern
// reports a request of a stateless protocol revision, withSession that the
// POST carries the session id.
func (c *StreamableClient) newPost(ctx context.Context, m protocol.Message, req *protocol.Request) (hr *http.Request, release func(), modern, withSession bool, err error) {
	body, err := encode(m)
	if err != nil {
		return nil, nil, false, false, err
	}
	bctx, release, err := c.bind(ctx)
	if err != nil {
		return nil, nil, false, false, err
	}
	hr, err = http.NewRequestWithContext(bctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		release()
		return nil, nil, false, false, fmt.Errorf("transport: %w", err)
	}
	hdr := hr.Header
	addHeaders(hdr, c.opts.Header)
	addHeaders(hdr, headerFromContext(ctx))
	hdr.Set("Content-Type", mediaJSON)
	hdr.Set("Accept", mediaJSON+", "+mediaSSE)
	var version string
	if req != nil && len(req.Params) > 0 {
		if meta, err := req.Meta(); err == nil && meta.ProtocolVersion != "" {
			version = meta.ProtocolVersion
			modern = protocol.EraOf(version).Stateless()
		}
	}
	c.mu.Lock()
	sid := c.sessionID
	if version == "" {
		version = c.version
	}
	c.mu.Unlock()
	withSession = sid != "" && !modern
	if withSession {
		hdr.Set(HeaderSessionID, sid)
	}
	if version != "" {
		hdr.Set(HeaderProtocolVersion, version)
	}
	if req != nil {
		hdr.Set(HeaderMethod, req.Method)
		if v, _, ok := nameParam(req.Method, req.Params); ok && v != "" {
			hdr.Set(HeaderName, EncodeHeaderValue(v))
		}
	}
	return hr, release, modern, withSession, nil
}

func encode(m protocol.Message) ([]byte, error) {
	b, err := protocol.AppendMessage(nil, m)
	if err != nil {
		return nil, fmt.Errorf("transport: encoding message: %w", err)
	}
	return b, nil
}

// call POSTs a request and starts reading its answer.
func (c *StreamableClient) call(ctx context.Context, m *protocol.Request) error {
	hr, release, modern, withSession, err := c.newPost(ctx, m, m)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.calls[m.ID] = &clientCall{cancel: release, modern: modern}
	c.modern = modern
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.calls, m.ID)
		c.mu.Unlock()
		release()
	}
	resp, err := c.post(ctx, hr, release)
	if err != nil {
		forget()
		return err
	}
	if m.Method == protocol.MethodInitialize && resp.StatusCode/100 == 2 {
		if sid := resp.Header.Get(HeaderSessionID); sid != "" {
			c.mu.Lock()
			c.sessionID = sid
			c.mu.Unlock()
		}
	}
	if resp.StatusCode/100 != 2 {
		defer forget()
		return c.failedPost(resp, m.ID, withSession)
	}
	switch mediaType(resp.Header.Get("Content-Type")) {
	case mediaSSE:
		if !c.spawn(func() { c.readAnswer(hr.Context(), forget, m.ID, resp.Body) }) {
			resp.Body.Close()
			forget()
			return ErrClosed
		}
		return nil
	case mediaJSON:
		// The answer is read on the caller's goroutine: a failure from
		// here on is the call's, reported through Read.
		defer forget()
		defer resp.Body.Close()
		msg, err := c.readJSONAnswer(resp.Body, m.Method)
		if err != nil {
			c.report(&CallError{ID: m.ID, Err: err})
			return nil
		}
		c.deliver(msg, m.ID)
		return nil
	default:
		forget()
		resp.Body.Close()
		if resp.StatusCode == http.StatusAccepted {
			return nil // the answer will arrive on another stream
		}
		return fmt.Errorf("transport: answer to %s has Content-Type %q", m.Method, resp.Header.Get("Content-Type"))
	}
}

// post sends hr, a POST whose context release ends (see bind). Until the
// answer starts, ctx bounds the request. When it fails, release has been
// called and the error is the client's own (closed, expired), ctx's, or
// the POST's, matching ErrTransport.
func (c *StreamableClient) post(ctx context.Context, hr *http.Request, release func()) (*http.Response, error) {
	stop := context.AfterFunc(ctx, release)
	resp, err := c.opts.HTTPClient.Do(hr)
	stop()
	if err == nil {
		return resp, nil
	}
	release()
	if e := c.err(); e != nil {
		return nil, e
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, fmt.Errorf("%w: POST %s: %w", ErrTransport, c.url, err)
}

// readJSONAnswer reads and decodes a JSON answer body of at most
// MaxMessageSize bytes: the answer to a request of method, or to a batch
// when method is "". Its errors say so; one over the size matches
// ErrMessageTooLarge.
func (c *StreamableClient) readJSONAnswer(body io.Reader, method string) (protocol.Message, error) {
	data, err := io.ReadAll(io.LimitReader(body, int64(c.opts.MaxMessageSize)+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("transport: reading %s: %w", answerTo(method), err)
	case len(data) > c.opts.MaxMessageSize:
		return nil, fmt.Errorf("transport: %s: %w (%d bytes)", answerTo(method), ErrMessageTooLarge, c.opts.MaxMessageSize)
	}
	msg, err := protocol.DecodeMessage(data)
	if err != nil {
		// %v: the decoding error's JSON-RPC code is not the server's.
		return nil, fmt.Errorf("transport: decoding %s: %v", answerTo(method), err)
	}
	return msg, nil
}

// answerTo names the answer to a request of method, or to a batch when
// method is "", in an error.
func answerTo(method string) string {
	if method == "" {
		return "the answer to a batch"
	}
	return "the answer to " + method
}

// failedPost turns a non-2xx answer into an error, or delivers it when its
// body is a JSON-RPC error answering the request id.
func (c *StreamableClient) failedPost(resp *http.Response, id protocol.ID, withSession bool) error {
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode == http.StatusNotFound && withSession {
		c.expire()
		return ErrSessionExpired
	}
	if id.IsValid() && mediaType(resp.Header.Get("Content-Type")) == mediaJSON {
		if msg, err := protocol.DecodeMessage(body); err == nil {
			if r, ok := msg.(*protocol.Response); ok && r.Error != nil && r.ID == id {
				c.deliver(r, id)
				return nil
			}
		}
	}
	if len(body) > 4<<10 {
		body = body[:4<<10]
	}
	return &HTTPError{Method: http.MethodPost, URL: c.url, StatusCode: resp.StatusCode, Header: resp.Header, Body: body}
}

// send POSTs a notification or a response.
func (c *StreamableClient) send(ctx context.Context, msg protocol.Message, req *protocol.Request) error {
	hr, release, _, withSession, err := c.newPost(ctx, msg, req)
	if err != nil {
		return err
	}
	defer release()
	stop := context.AfterFunc(ctx, release)
	defer stop()
	resp, err := c.opts.HTTPClient.Do(hr)
	if err != nil {
		if e := c.err(); e != nil {
			return e
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("transport: POST %s: %w", c.url, err)
	}
	if resp.StatusCode/100 != 2 {
		return c.failedPost(resp, protocol.ID{}, withSession)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if req != nil && req.Method == protocol.NotificationInitialized {
		c.startListening()
	}
	return nil
}

// readAnswer reads the SSE answer to request id until its response
// arrives, resuming the stream with GET and Last-Event-ID when it ends
// early. It owns body.
func (c *StreamableClient) readAnswer(ctx context.Context, release func(), id protocol.ID, body io.ReadCloser) {
	defer release()
	lastID, retry := "", c.opts.ReconnectDelay
	idle := 0 // consecutive resumptions that brought no event
	for {
		before := lastID
		got, err := c.readEvents(body, id, &lastID, &retry)
		body.Close()
		if got || ctx.Err() != nil {
			return
		}
		if lastID == "" {
			c.lost(id, fmt.Errorf("the answer stream ended before the response and cannot be resumed: %w", err))
			return
		}
		if lastID == before {
			if idle++; idle > c.opts.MaxRetries {
				c.lost(id, fmt.Errorf("the answer stream was resumed %d times without progress", idle))
				return
			}
		} else {
			idle = 0
		}
		body, err = c.reconnect(ctx, lastID, &retry)
		if err != nil { // ErrStreamLost, which says "transport:" already
			c.logger.Warn("MCP HTTP answer lost", "id", id.String(), "reason", err)
			c.failCall(id, err)
			return
		}
		if body == nil {
			if ctx.Err() == nil && c.err() == nil {
				c.lost(id, errors.New("the answer stream ended before the response and could not be resumed"))
			}
			return
		}
	}
}
