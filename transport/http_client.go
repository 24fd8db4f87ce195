package transport

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
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

	// Read's side: errs carries *CallError and *protocol.DecodeError,
	// ended is closed when the session expired (failErr says so).
	chanConn
	wg sync.WaitGroup

	mu        sync.Mutex
	closed    bool
	failErr   error
	sessionID string
	version   string // negotiated revision, told by the engine (SetProtocolVersion)
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
	c := &StreamableClient{
		url:      url,
		opts:     o,
		ownHC:    own,
		logger:   o.Logger,
		chanConn: newChanConn(64),
		calls:    map[protocol.ID]*clientCall{},
		aborts:   map[uint64]context.CancelFunc{},
	}
	c.errs, c.ended = make(chan error, 8), make(chan struct{})
	c.end = func() error { return c.failErr } // set before ended is closed
	return c
}

// SessionID returns the Mcp-Session-Id the server issued, or "".
func (c *StreamableClient) SessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID
}

// SetProtocolVersion records the revision the initialize handshake settled
// (see VersionedConn); later requests and the GET stream send it as the
// MCP-Protocol-Version header.
func (c *StreamableClient) SetProtocolVersion(v string) {
	c.mu.Lock()
	c.version = v
	c.mu.Unlock()
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
	case <-c.ended:
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
	return c.chanConn.Read(ctx)
}

// deliver hands a message to Read. from is the request whose answer
// stream carried it (the zero ID for the GET stream): a response that
// arrives on another request's stream, or on the GET stream, ends the
// reading of its own request's stream.
func (c *StreamableClient) deliver(m protocol.Message, from protocol.ID) {
	if r, ok := m.(*protocol.Response); ok {
		var stale *clientCall
		c.mu.Lock()
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
	_ = c.put(context.Background(), m) // fails only once closed: dropped
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
	c.report(&CallError{ID: id, Err: err})
}

func (c *StreamableClient) expire() {
	c.mu.Lock()
	if c.failErr == nil {
		c.failErr = ErrSessionExpired
		close(c.ended)
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
