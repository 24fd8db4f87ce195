package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// SSEClient is the client side of the legacy HTTP+SSE transport of
// protocol revision 2024-11-05, a Conn to a server's SSE URL.
//
// The first Write opens the stream (GET), waits for the server's endpoint
// event, then POSTs the message to that endpoint, as it does every later
// message; the server's messages arrive as "message" events and are
// returned by Read. The endpoint must have the same scheme and host as the
// SSE URL. When the stream ends, Read returns io.EOF. One goroutine reads
// the stream; Close stops it and waits for it. All methods are safe for
// concurrent use.
type SSEClient struct {
	url    string
	opts   HTTPClientOptions
	ownHC  bool
	logger *slog.Logger

	// Read's side: errs carries *CallError and *protocol.DecodeError,
	// ended is closed when the stream has ended (see readEnd).
	chanConn
	wg sync.WaitGroup

	startMu  sync.Mutex // held while connecting
	endpoint string
	startErr error

	mu        sync.Mutex
	closed    bool
	endErr    error
	cancelGet context.CancelFunc
}

// NewSSEClient returns a Conn to the legacy HTTP+SSE server whose SSE
// endpoint is url. It connects on the first Write. opts may be nil.
func NewSSEClient(url string, opts *HTTPClientOptions) *SSEClient {
	o, own := opts.resolve()
	c := &SSEClient{url: url, opts: o, ownHC: own, logger: o.Logger, chanConn: newChanConn(64)}
	c.errs, c.ended, c.end = make(chan error, 8), make(chan struct{}), c.readEnd
	return c
}

// Endpoint returns the message endpoint the server announced, or "".
func (c *SSEClient) Endpoint() string {
	c.startMu.Lock()
	defer c.startMu.Unlock()
	return c.endpoint
}

// start opens the stream and waits for the endpoint event, once; ctx
// bounds the wait.
func (c *SSEClient) start(ctx context.Context) (string, error) {
	c.startMu.Lock()
	defer c.startMu.Unlock()
	if c.endpoint != "" || c.startErr != nil {
		return c.endpoint, c.startErr
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return "", ErrClosed
	}
	gctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c.cancelGet = cancel
	c.mu.Unlock()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	ep, body, err := c.connect(gctx)
	if err != nil {
		cancel()
		if ctx.Err() != nil {
			return "", ctx.Err() // a later Write may try again
		}
		c.startErr = err
		close(c.ended)
		return "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		body.Close()
		return "", ErrClosed
	}
	c.endpoint = ep
	c.wg.Add(1)
	go c.readStream(body)
	return ep, nil
}

type bodyReader struct {
	*sseReader
	io.Closer
}

func (c *SSEClient) connect(ctx context.Context) (string, *bodyReader, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return "", nil, fmt.Errorf("transport: %w", err)
	}
	addHeaders(hr.Header, c.opts.Header)
	hr.Header.Set("Accept", mediaSSE)
	resp, err := c.opts.HTTPClient.Do(hr)
	if err != nil {
		return "", nil, fmt.Errorf("transport: GET %s: %w", c.url, err)
	}
	if resp.StatusCode/100 != 2 || mediaType(resp.Header.Get("Content-Type")) != mediaSSE {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		if resp.StatusCode/100 == 2 {
			return "", nil, fmt.Errorf("transport: GET %s: Content-Type %q is not an event stream", c.url, resp.Header.Get("Content-Type"))
		}
		return "", nil, &HTTPError{Method: http.MethodGet, URL: c.url, StatusCode: resp.StatusCode, Header: resp.Header, Body: body}
	}
	br := &bodyReader{newSSEReader(resp.Body, c.opts.MaxMessageSize), resp.Body}
	for {
		ev, err := br.next()
		if err != nil {
			br.Close()
			return "", nil, fmt.Errorf("transport: SSE stream from %s ended before its endpoint event: %w", c.url, err)
		}
		if ev.Type != "endpoint" || ev.TooLarge != nil {
			continue
		}
		ep, err := c.resolve(string(bytes.TrimSpace(ev.Data)))
		if err != nil {
			br.Close()
			return "", nil, err
		}
		return ep, br, nil
	}
}

// resolve turns the endpoint event's data into an absolute URL on the same
// origin as the SSE URL.
func (c *SSEClient) resolve(data string) (string, error) {
	base, err := url.Parse(c.url)
	if err != nil {
		return "", fmt.Errorf("transport: %w", err)
	}
	ref, err := url.Parse(data)
	if err != nil {
		return "", fmt.Errorf("transport: bad endpoint %q: %w", data, err)
	}
	u := base.ResolveReference(ref)
	if u.Scheme != base.Scheme || u.Host != base.Host {
		return "", fmt.Errorf("transport: endpoint %q is not on the origin of %s", data, c.url)
	}
	return u.String(), nil
}

func (c *SSEClient) readStream(br *bodyReader) {
	defer c.wg.Done()
	defer br.Close()
	var err error
	for {
		var ev sseEvent
		ev, err = br.next()
		if err != nil {
			break
		}
		if de := ev.TooLarge; de != nil {
			if de.NotRequest && !de.ID.IsValid() {
				// A response that cannot be matched to its call: that call
				// would wait forever.
				err = fmt.Errorf("a response over the size limit, whose id could not be read: %w", de.Cause)
				break
			}
			var report error = de // a request: answered with the error
			if de.NotRequest {
				report = &CallError{ID: de.ID, Err: de.Cause}
			} else if !de.ID.IsValid() {
				c.logger.Warn("ignoring a notification from the MCP server over the size limit", "error", de.Cause)
				continue
			}
			if c.report(report) != nil {
				return
			}
			continue
		}
		msg, ok := ev.message(c.logger)
		if !ok {
			continue
		}
		if c.put(context.Background(), msg) != nil {
			return
		}
	}
	c.mu.Lock()
	if errors.Is(err, io.EOF) || err == nil {
		c.endErr = io.EOF
	} else {
		c.endErr = fmt.Errorf("transport: SSE stream: %w", err)
	}
	c.mu.Unlock()
	close(c.ended)
}

// Read implements Conn. After the stream ends it returns io.EOF (or the
// error that ended it). A message over MaxMessageSize is skipped: Read
// returns a *CallError for the call it answered (or a
// *protocol.DecodeError for a request), and goes on.
func (c *SSEClient) Read(ctx context.Context) (protocol.Message, error) {
	return c.chanConn.Read(ctx)
}

// readEnd is Read's error once the stream has ended: why it ended, or why
// it never started.
func (c *SSEClient) readEnd() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.endErr == nil {
		return c.startErr
	}
	return c.endErr
}

// Write implements Conn.
func (c *SSEClient) Write(ctx context.Context, msg protocol.Message) error {
	if c.isClosed() {
		return ErrClosed
	}
	ep, err := c.start(ctx)
	if err != nil {
		return err
	}
	body, err := encode(msg)
	if err != nil {
		return err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, ep, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("transport: %w", err)
	}
	addHeaders(hr.Header, c.opts.Header)
	addHeaders(hr.Header, headerFromContext(ctx))
	hr.Header.Set("Content-Type", mediaJSON)
	resp, err := c.opts.HTTPClient.Do(hr)
	if err != nil {
		if c.isClosed() {
			return ErrClosed
		}
		return fmt.Errorf("%w: POST %s: %w", ErrTransport, ep, err)
	}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return &HTTPError{Method: http.MethodPost, URL: ep, StatusCode: resp.StatusCode, Header: resp.Header, Body: data}
	}
	return nil
}

// Close implements Conn: it closes the stream (which ends the session on
// the server) and waits for the reading goroutine.
func (c *SSEClient) Close() error {
	c.once.Do(func() {
		c.mu.Lock()
		c.closed = true
		cancel := c.cancelGet
		c.mu.Unlock()
		close(c.done)
		if cancel != nil {
			cancel()
		}
		c.wg.Wait()
		if c.ownHC {
			c.opts.HTTPClient.CloseIdleConnections()
		}
	})
	return nil
}

// FallbackClient is a Conn to an MCP server URL that may speak either
// Streamable HTTP or the legacy HTTP+SSE transport (revision 2024-11-05),
// following the backwards-compatibility procedure of the specification.
//
// The decision is made on the first Write (normally the initialize
// request): the message is POSTed as Streamable HTTP; if that fails with
// 400, 404 or 405 (and the body is not a JSON-RPC error answering the
// message, which a modern server would send), the client opens the URL as
// a legacy SSE stream instead and sends the message there. Every later
// call goes to the transport chosen. Until then Read waits. Writes are
// serialized while the choice is made. All methods are safe for concurrent
// use.
type FallbackClient struct {
	url  string
	opts *HTTPClientOptions

	chosen chan struct{}
	done   chan struct{}

	decide sync.Mutex // held while the first Write decides

	mu     sync.Mutex
	conn   Conn // the transport chosen
	trying Conn // the transport being tried
	closed bool
}

// NewFallbackClient returns a Conn to url that picks Streamable HTTP or
// legacy SSE on the first Write. opts may be nil.
func NewFallbackClient(url string, opts *HTTPClientOptions) *FallbackClient {
	return &FallbackClient{url: url, opts: opts, chosen: make(chan struct{}), done: make(chan struct{})}
}

// Conn returns the transport chosen (a *StreamableClient or an
// *SSEClient), or nil before the first successful Write.
func (c *FallbackClient) Conn() Conn {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conn
}

// try makes conn the transport being tried, unless the client is closed.
func (c *FallbackClient) try(conn Conn) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.trying = conn
	return true
}

// Write implements Conn.
func (c *FallbackClient) Write(ctx context.Context, msg protocol.Message) error {
	if conn := c.Conn(); conn != nil {
		return conn.Write(ctx, msg)
	}
	c.decide.Lock()
	defer c.decide.Unlock()
	if conn := c.Conn(); conn != nil {
		return conn.Write(ctx, msg)
	}
	sc := NewStreamableClient(c.url, c.opts)
	if !c.try(sc) {
		return ErrClosed
	}
	var chosen Conn = sc
	err := sc.Write(ctx, msg)
	if he, ok := errors.AsType[*HTTPError](err); ok {
		switch he.StatusCode {
		case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed:
			sc.Close()
			ss := NewSSEClient(c.url, c.opts)
			if !c.try(ss) {
				return ErrClosed
			}
			chosen = ss
			if err = ss.Write(ctx, msg); err != nil {
				err = fmt.Errorf("transport: %s: Streamable HTTP failed (%v), and so did legacy SSE: %w", c.url, he, err)
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.trying = nil
	if c.closed {
		chosen.Close()
		return ErrClosed
	}
	if err != nil {
		chosen.Close()
		return err
	}
	c.conn = chosen
	close(c.chosen)
	return nil
}

// Read implements Conn.
func (c *FallbackClient) Read(ctx context.Context) (protocol.Message, error) {
	select {
	case <-c.chosen:
		return c.Conn().Read(ctx)
	case <-c.done:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close implements Conn: it closes the transport chosen (or being tried).
func (c *FallbackClient) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	close(c.done)
	conn, trying := c.conn, c.trying
	c.mu.Unlock()
	if trying != nil {
		trying.Close()
	}
	if conn != nil {
		return conn.Close()
	}
	return nil
}
