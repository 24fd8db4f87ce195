package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// HTTPClientOptions configures the HTTP client transports
// (NewStreamableClient, NewSSEClient, NewFallbackClient). The zero value is
// ready to use.
type HTTPClientOptions struct {
	// HTTPClient sends the requests. Its Timeout, if any, must leave room
	// for long SSE streams. Nil means a client with a connection pool of
	// its own, whose idle connections Close closes.
	HTTPClient *http.Client
	// Header holds headers added to every request, such as Authorization.
	// It is not modified and must not be modified while in use.
	Header http.Header
	// MaxRetries bounds consecutive failed attempts to reconnect an SSE
	// stream before giving up. Zero means 3; negative disables
	// reconnecting.
	MaxRetries int
	// ReconnectDelay is how long to wait before reconnecting an SSE stream
	// when the server has not set one with an SSE retry field. Zero means
	// 1 second.
	ReconnectDelay time.Duration
	// MaxMessageSize bounds each message read from the server. Zero means
	// DefaultClientMaxMessageSize (64 MiB). A message over it fails the call
	// it answers with an error matching ErrMessageTooLarge; the connection
	// goes on.
	MaxMessageSize int
	// Logger receives diagnostics. Nil means slog.Default().
	Logger *slog.Logger
}

func (o *HTTPClientOptions) resolve() (HTTPClientOptions, bool) {
	var r HTTPClientOptions
	if o != nil {
		r = *o
	}
	own := false
	if r.HTTPClient == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		r.HTTPClient = &http.Client{Transport: t}
		own = true
	}
	if r.MaxRetries == 0 {
		r.MaxRetries = 3
	} else if r.MaxRetries < 0 {
		r.MaxRetries = 0
	}
	if r.ReconnectDelay <= 0 {
		r.ReconnectDelay = time.Second
	}
	if r.MaxMessageSize <= 0 {
		r.MaxMessageSize = DefaultClientMaxMessageSize
	}
	if r.Logger == nil {
		r.Logger = slog.Default()
	}
	return r, own
}

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

// StreamableClient is the client side of the Streamable HTTP transport, a
// Conn to an MCP endpoint URL.
//
// Write POSTs each message. A request's answer (one JSON body, or an SSE
// stream carrying related messages and then the response) is fed to Read;
// Write returns once the server has accepted the request (the answer's
// headers arrived) and reports HTTP failures: *HTTPError, or
// ErrSessionExpired. A JSON-RPC error body that answers the request (as a
// modern server sends with 400 or 404) is delivered to Read instead.
//
// For legacy revisions it keeps the Mcp-Session-Id from the answer to
// initialize and sends it afterwards, sends the negotiated revision in
// MCP-Protocol-Version (learnt from the initialize result), opens the GET
// stream for server-initiated messages once notifications/initialized is
// accepted, and resumes a stream that ends before its response with GET and
// Last-Event-ID, after the delay the server set with an SSE retry field.
// Cancelling (writing notifications/cancelled for) a request also stops
// reading its stream.
//
// A request whose params._meta names a protocol version (2026-07-28) is
// sent without session id, with that version in MCP-Protocol-Version;
// cancelling it aborts its POST instead of sending the notification, as
// that revision specifies. Every POST carries Mcp-Method, and Mcp-Name for
// tools/call, prompts/get and resources/read (Base64-encoded when not plain
// ASCII); WithHeader adds more per message.
//
// Each SSE answer is read by a goroutine of its own, and the GET stream by
// another; Close stops them all, sends DELETE for the session (best
// effort), and waits for them. All methods are safe for concurrent use.
type StreamableClient struct {
	url    string
	opts   HTTPClientOptions
	ownHC  bool
	logger *slog.Logger

	in     chan protocol.Message
	errs   chan error // *CallError and *protocol.DecodeError for Read
	done   chan struct{}
	failed chan struct{} // closed when the session expired
	once   sync.Once
	wg     sync.WaitGroup

	mu        sync.Mutex
	closed    bool
	failErr   error
	sessionID string
	version   string
	initID    protocol.ID
	calls     map[protocol.ID]*clientCall
	modern    bool // the last request POSTed was modern (2026-07-28)
	aborts    map[uint64]context.CancelFunc
	nextAbort uint64
	listening bool
}

type clientCall struct {
	cancel context.CancelFunc
	modern bool
}

// NewStreamableClient returns a Conn to the Streamable HTTP endpoint url.
// It sends nothing until the first Write. opts may be nil.
func NewStreamableClient(url string, opts *HTTPClientOptions) *StreamableClient {
	o, own := opts.resolve()
	return &StreamableClient{
		url:    url,
		opts:   o,
		ownHC:  own,
		logger: o.Logger,
		in:     make(chan protocol.Message, 64),
		errs:   make(chan error, 8),
		done:   make(chan struct{}),
		failed: make(chan struct{}),
		calls:  map[protocol.ID]*clientCall{},
		aborts: map[uint64]context.CancelFunc{},
	}
}

// SessionID returns the Mcp-Session-Id the server issued, or "".
func (c *StreamableClient) SessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID
}

// ProtocolVersion returns the revision negotiated by initialize, or "".
func (c *StreamableClient) ProtocolVersion() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// bind returns a context derived from parent's values (not its
// cancellation) that Close cancels, and a function to release it.
func (c *StreamableClient) bind(parent context.Context) (context.Context, func(), error) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		cancel()
		return nil, nil, ErrClosed
	}
	c.nextAbort++
	k := c.nextAbort
	c.aborts[k] = cancel
	return ctx, func() {
		cancel()
		c.mu.Lock()
		delete(c.aborts, k)
		c.mu.Unlock()
	}, nil
}

func (c *StreamableClient) err() error {
	select {
	case <-c.done:
		return ErrClosed
	case <-c.failed:
		return c.failErr
	default:
		return nil
	}
}

// Read implements Conn. Once the session has expired it returns an error
// matching ErrSessionExpired (after the messages already received). A
// *CallError reports a request whose answer was lost (the connection broke,
// its stream could not be resumed, or the answer was over MaxMessageSize),
// and a *protocol.DecodeError a message over MaxMessageSize; the
// connection goes on after both.
func (c *StreamableClient) Read(ctx context.Context) (protocol.Message, error) {
	select {
	case m := <-c.in:
		return m, nil
	case err := <-c.errs:
		return nil, err
	case <-c.done:
		return nil, ErrClosed
	case <-c.failed:
		select {
		case m := <-c.in:
			return m, nil
		case err := <-c.errs:
			return nil, err
		default:
		}
		return nil, c.failErr
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// deliver hands a message to Read. from is the request whose answer
// stream carried it (the zero ID for the GET stream): a response that
// arrives on another request's stream, or on the GET stream, ends the
// reading of its own request's stream.
func (c *StreamableClient) deliver(m protocol.Message, from protocol.ID) {
	if r, ok := m.(*protocol.Response); ok {
		var stale *clientCall
		c.mu.Lock()
		if c.initID.IsValid() && r.ID == c.initID {
			c.initID = protocol.ID{}
			if r.Error == nil {
				c.version = peekVersion(r.Result)
			}
		}
		if r.ID != from {
			if stale = c.calls[r.ID]; stale != nil {
				delete(c.calls, r.ID)
			}
		}
		c.mu.Unlock()
		if stale != nil {
			stale.cancel()
		}
	}
	select {
	case c.in <- m:
	case <-c.done:
	}
}

// fail hands Read an error about one message or call (see Read).
func (c *StreamableClient) fail(err error) {
	select {
	case c.errs <- err:
	case <-c.done:
	}
}

// failCall ends the reading of the answer to id, if still in progress,
// and has Read report err for the call.
func (c *StreamableClient) failCall(id protocol.ID, err error) {
	c.mu.Lock()
	cc := c.calls[id]
	delete(c.calls, id)
	c.mu.Unlock()
	if cc != nil {
		cc.cancel()
	}
	c.fail(&CallError{ID: id, Err: err})
}

func (c *StreamableClient) expire() {
	c.mu.Lock()
	if c.failErr == nil {
		c.failErr = ErrSessionExpired
		close(c.failed)
	}
	c.mu.Unlock()
}

// Write implements Conn.
func (c *StreamableClient) Write(ctx context.Context, msg protocol.Message) error {
	if err := c.err(); err != nil {
		return err
	}
	switch m := msg.(type) {
	case *protocol.Request:
		if m.Method == protocol.NotificationCancelled && c.cancelCall(m) {
			return nil
		}
		if m.IsCall() {
			return c.call(ctx, m)
		}
		return c.send(ctx, m, m)
	case *protocol.Response:
		return c.send(ctx, m, nil)
	case *protocol.Batch:
		return c.batch(ctx, m)
	}
	return fmt.Errorf("transport: cannot send %T", msg)
}

// cancelCall stops reading the answer of the request a notifications/
// cancelled names. It reports whether the notification must not be sent
// (the request was modern: closing its stream is the cancellation).
func (c *StreamableClient) cancelCall(m *protocol.Request) bool {
	var p protocol.CancelledParams
	if protocol.Unmarshal(m.Params, &p) != nil || !p.RequestID.IsValid() {
		return false
	}
	c.mu.Lock()
	cc := c.calls[p.RequestID]
	delete(c.calls, p.RequestID)
	modern := c.modern
	c.mu.Unlock()
	if cc == nil {
		// The answer has already arrived (or the request was never sent
		// here). On 2026-07-28 the notification is never sent over
		// Streamable HTTP, which has no client notifications; on legacy
		// revisions it still goes out, as a request answered 202 is in
		// progress elsewhere.
		return modern
	}
	cc.cancel()
	return cc.modern
}

// newPost builds the POST carrying body. req is the message when it is a
// request or notification.
func (c *StreamableClient) newPost(ctx context.Context, body []byte, req *protocol.Request) (*http.Request, bool, bool, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, false, false, fmt.Errorf("transport: %w", err)
	}
	hdr := hr.Header
	addHeaders(hdr, c.opts.Header)
	addHeaders(hdr, headerFromContext(ctx))
	hdr.Set("Content-Type", mediaJSON)
	hdr.Set("Accept", mediaJSON+", "+mediaSSE)
	var version string
	modern := false
	if req != nil && len(req.Params) > 0 {
		if meta, err := protocol.ParseRequestMeta(req.Params); err == nil && meta.ProtocolVersion != "" {
			version = meta.ProtocolVersion
			modern = protocol.IsModern(version)
		}
	}
	c.mu.Lock()
	sid := c.sessionID
	if version == "" {
		version = c.version
	}
	c.mu.Unlock()
	withSession := sid != "" && !modern
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
	return hr, modern, withSession, nil
}

func addHeaders(dst, src http.Header) {
	for k, vs := range src {
		dst[http.CanonicalHeaderKey(k)] = append(dst[http.CanonicalHeaderKey(k)], vs...)
	}
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
	body, err := encode(m)
	if err != nil {
		return err
	}
	rctx, release, err := c.bind(ctx)
	if err != nil {
		return err
	}
	hr, modern, withSession, err := c.newPost(rctx, body, m)
	if err != nil {
		release()
		return err
	}
	c.mu.Lock()
	c.calls[m.ID] = &clientCall{cancel: release, modern: modern}
	c.modern = modern
	if m.Method == protocol.MethodInitialize {
		c.initID = m.ID
	}
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
		if !c.spawn(func() { c.readAnswer(rctx, forget, m.ID, resp.Body) }) {
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
			c.fail(&CallError{ID: m.ID, Err: err})
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
	body, err := encode(msg)
	if err != nil {
		return err
	}
	pctx, release, err := c.bind(ctx)
	if err != nil {
		return err
	}
	defer release()
	stop := context.AfterFunc(ctx, release)
	defer stop()
	hr, _, withSession, err := c.newPost(pctx, body, req)
	if err != nil {
		return err
	}
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
		body = c.reconnect(ctx, lastID, &retry)
		if body == nil {
			if ctx.Err() == nil && c.err() == nil {
				c.lost(id, errors.New("the answer stream ended before the response and could not be resumed"))
			}
			return
		}
	}
}

// lost fails the call id, whose answer cannot come, with an error
// matching ErrTransport (never a made-up JSON-RPC error, which would look
// as if the server had sent it).
func (c *StreamableClient) lost(id protocol.ID, why error) {
	c.logger.Warn("MCP HTTP answer lost", "id", id.String(), "reason", why)
	c.failCall(id, fmt.Errorf("transport: %w", why))
}

// reconnect waits the retry delay and GETs the stream after lastID, trying
// up to MaxRetries times. It returns the new stream's body, or nil.
func (c *StreamableClient) reconnect(ctx context.Context, lastID string, retry *time.Duration) io.ReadCloser {
	for range c.opts.MaxRetries {
		t := time.NewTimer(*retry)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil
		}
		resp, withSession, err := c.get(ctx, lastID)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			c.logger.Debug("reconnecting MCP stream failed", "error", err)
			continue
		}
		switch {
		case resp.StatusCode == http.StatusNotFound && withSession:
			resp.Body.Close()
			c.expire()
			return nil
		case resp.StatusCode == http.StatusMethodNotAllowed:
			resp.Body.Close()
			return nil
		case resp.StatusCode/100 == 2 && mediaType(resp.Header.Get("Content-Type")) == mediaSSE:
			return resp.Body
		}
		resp.Body.Close()
		c.logger.Debug("reconnecting MCP stream failed", "status", resp.StatusCode)
	}
	return nil
}

func (c *StreamableClient) get(ctx context.Context, lastID string) (*http.Response, bool, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return nil, false, err
	}
	hdr := hr.Header
	addHeaders(hdr, c.opts.Header)
	hdr.Set("Accept", mediaSSE)
	c.mu.Lock()
	sid, version := c.sessionID, c.version
	c.mu.Unlock()
	if sid != "" {
		hdr.Set(HeaderSessionID, sid)
	}
	if version != "" {
		hdr.Set(HeaderProtocolVersion, version)
	}
	if lastID != "" {
		hdr.Set(HeaderLastEventID, lastID)
	}
	resp, err := c.opts.HTTPClient.Do(hr)
	return resp, sid != "", err
}

// readEvents feeds the messages of an SSE stream to Read, tracking the
// last event id and retry delay. It reports whether the response to id
// (when valid) arrived, which ends the stream.
func (c *StreamableClient) readEvents(body io.Reader, id protocol.ID, lastID *string, retry *time.Duration) (bool, error) {
	r := newSSEReader(body, c.opts.MaxMessageSize)
	for {
		ev, err := r.next()
		if err != nil {
			return false, err
		}
		if ev.ID != "" {
			*lastID = ev.ID
		}
		if ev.Retry > 0 {
			*retry = ev.Retry
		}
		if ev.TooLarge != nil {
			if c.tooLarge(ev.TooLarge, id) {
				return true, nil
			}
			continue
		}
		msg, ok := ev.message(c.logger)
		if !ok {
			continue
		}
		c.deliver(msg, id)
		if r, ok := msg.(*protocol.Response); ok && id.IsValid() && r.ID == id {
			return true, nil
		}
	}
}

// tooLarge deals with a message over the limit that the answer stream of
// request id (the zero ID for the GET stream) carried, which was skipped.
// A response fails the call it answers (on a request's stream, one whose id
// could not be read is taken for that request's); a request is handed to
// Read, to be answered with the error. It reports whether the stream's own
// request was failed.
func (c *StreamableClient) tooLarge(de *protocol.DecodeError, id protocol.ID) bool {
	switch {
	case de.NotRequest && de.ID.IsValid():
		c.failCall(de.ID, de.Cause)
		return de.ID == id
	case de.NotRequest && id.IsValid():
		c.failCall(id, de.Cause)
		return true
	case !de.NotRequest && de.ID.IsValid():
		c.fail(de)
	default:
		c.logger.Warn("ignoring a message from the MCP server over the size limit", "error", de.Cause)
	}
	return false
}

// spawn runs fn in a goroutine that Close waits for, unless the client is
// closed.
func (c *StreamableClient) spawn(fn func()) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		fn()
	}()
	return true
}

// startListening opens the GET stream for server-initiated messages,
// once. It returns when the GET request has been written (or has failed),
// so that the server sees the stream opened before the client's next
// request.
func (c *StreamableClient) startListening() {
	c.mu.Lock()
	already := c.listening
	c.listening = true
	c.mu.Unlock()
	if already {
		return
	}
	ctx, release, err := c.bind(context.Background())
	if err != nil {
		return
	}
	sent := make(chan struct{})
	var once sync.Once
	signal := func() { once.Do(func() { close(sent) }) }
	first := httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { signal() }})
	if !c.spawn(func() { c.listen(ctx, first, signal, release) }) {
		release()
		return
	}
	t := time.NewTimer(5 * time.Second)
	defer t.Stop()
	select {
	case <-sent:
	case <-t.C:
	case <-c.done:
	}
}

// listen keeps the GET stream open, reconnecting (with Last-Event-ID)
// whenever it ends, until Close, a 405 or 404 (the server has no GET
// stream, or the session expired), or MaxRetries consecutive failures.
func (c *StreamableClient) listen(ctx, first context.Context, sent, release func()) {
	defer release()
	defer sent()
	lastID, retry, failures := "", c.opts.ReconnectDelay, 0
	for {
		resp, withSession, err := c.get(first, lastID)
		sent()
		first = ctx
		if ctx.Err() != nil {
			if err == nil {
				resp.Body.Close()
			}
			return
		}
		switch {
		case err != nil:
			failures++
		case resp.StatusCode == http.StatusMethodNotAllowed:
			resp.Body.Close()
			return // the server offers no GET stream
		case resp.StatusCode == http.StatusNotFound:
			resp.Body.Close()
			if withSession {
				c.expire()
			}
			return // without a session: no GET stream here either
		case resp.StatusCode/100 == 2 && mediaType(resp.Header.Get("Content-Type")) == mediaSSE:
			failures = 0
			_, _ = c.readEvents(resp.Body, protocol.ID{}, &lastID, &retry)
			resp.Body.Close()
		default:
			resp.Body.Close()
			failures++
		}
		if failures > c.opts.MaxRetries {
			c.logger.Debug("giving up the MCP GET stream", "failures", failures)
			return
		}
		t := time.NewTimer(retry)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
}

// Close implements Conn: it aborts every request and stream in progress,
// sends DELETE for the session (best effort, bounded to 2 seconds), and
// waits for the goroutines it started.
func (c *StreamableClient) Close() error {
	c.once.Do(func() {
		c.mu.Lock()
		c.closed = true
		sid, expired := c.sessionID, c.failErr != nil
		aborts := maps.Clone(c.aborts)
		c.mu.Unlock()
		close(c.done)
		for _, cancel := range aborts {
			cancel()
		}
		if sid != "" && !expired {
			c.deleteSession(sid)
		}
		c.wg.Wait()
		if c.ownHC {
			c.opts.HTTPClient.CloseIdleConnections()
		}
	})
	return nil
}

func (c *StreamableClient) deleteSession(sid string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.url, nil)
	if err != nil {
		return
	}
	addHeaders(hr.Header, c.opts.Header)
	hr.Header.Set(HeaderSessionID, sid)
	c.mu.Lock()
	if c.version != "" {
		hr.Header.Set(HeaderProtocolVersion, c.version)
	}
	c.mu.Unlock()
	resp, err := c.opts.HTTPClient.Do(hr)
	if err != nil {
		c.logger.Debug("DELETE of MCP session failed", "error", err)
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
}
