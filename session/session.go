package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// Errors reported by a Session. Pending calls fail with an error for which
// errors.Is(err, ErrClosed) holds once the session has ended, whatever the
// reason (local Close, the peer going away, a broken transport); the reason
// itself is wrapped beside it.
var (
	ErrClosed = errors.New("session: closed")
	// ErrCancelledByPeer is the cause recorded on a handler's context when the
	// peer sent notifications/cancelled for its request.
	ErrCancelledByPeer = errors.New("session: request cancelled by peer")
	// ErrTimeout is returned by Call when the call timeout elapses; the error
	// also matches context.DeadlineExceeded.
	ErrTimeout = errors.New("session: call timed out")
	// ErrUnsupportedVersion is returned by Initialize when the server answers
	// with a protocol revision this package does not speak.
	ErrUnsupportedVersion = errors.New("session: server chose an unsupported protocol version")
)

// Role says which side of MCP a session plays. It decides the lifecycle
// rules: a server gates requests on the initialize handshake, a client
// performs it.
type Role int

const (
	// RoleServer serves an MCP client.
	RoleServer Role = iota
	// RoleClient talks to an MCP server.
	RoleClient
)

func (r Role) String() string {
	if r == RoleClient {
		return "client"
	}
	return "server"
}

// Options configures a Session. The zero value is a server session with no
// handler (every request gets "method not found").
type Options struct {
	// Role is the side this session plays.
	Role Role
	// Handler serves incoming requests and notifications. Nil answers every
	// request with CodeMethodNotFound.
	Handler Handler
	// Logger receives the session's diagnostics. Nil means slog.Default().
	Logger *slog.Logger
	// MaxConcurrency bounds how many incoming requests are served at once;
	// others wait their turn (the reading goroutine never waits, so responses
	// and cancellations keep flowing while handlers are busy). Zero means 64.
	MaxConcurrency int
	// MaxQueued bounds how many incoming requests may wait for a turn; beyond
	// it requests are refused with an internal error saying the server is
	// busy. Zero means 10000.
	MaxQueued int
	// CallTimeout bounds each outgoing call that has no shorter deadline.
	// Zero means no timeout beyond the caller's context.
	CallTimeout time.Duration
	// Version, when set, starts a server session as if the initialize
	// handshake had already negotiated this revision. Stateless HTTP serving
	// uses it to answer each request in a fresh session.
	Version string
	// DrainTimeout bounds how long the requests read before the peer ended
	// its input (the transport's Read reported io.EOF, as when a stdio
	// client closes the server's stdin or a server subprocess exits) may
	// still run so that their responses are written and flushed; then the
	// session closes as Close does, cancelling what is still running. End
	// of input means "no more requests", not "abandon the ones read".
	// Outgoing calls fail at once when the input ends, since no response
	// can arrive any more. Zero means DefaultDrainTimeout; a negative value
	// closes the session at once.
	DrainTimeout time.Duration
}

// DefaultDrainTimeout is the DrainTimeout of a session whose Options set
// none.
const DefaultDrainTimeout = 10 * time.Second

// Session is one MCP connection: a JSON-RPC 2.0 engine over a
// transport.Conn plus the legacy lifecycle (initialize, version negotiation,
// capabilities).
//
// New starts one goroutine that reads messages. Incoming requests are
// served by worker goroutines the session starts as requests arrive, up to
// MaxConcurrency of them. On a transport without DirectConn (stdio, pipes)
// the reading is itself done by a worker, which, on reading a call that can
// be served at once, hands the reading to an idle worker and serves the
// call itself, so that its response does not wait for a goroutine to wake
// up; a slow handler never holds up the reading. A worker that finds no
// request waiting stays parked for the next one, so that a busy session
// does not pay for a new goroutine (and its stack growth) per request;
// parked workers exit when the session has served no request for a
// second, and at most 16 stay parked. Close stops reading, cancels every handler's context, fails every
// pending call and waits for the reader and every worker to exit. When the
// peer ends its input (io.EOF), the session takes no more requests, fails
// pending calls, and answers the requests already read (see
// Options.DrainTimeout) before it closes. All methods are safe for
// concurrent use.
type Session struct {
	conn    transport.Conn
	role    Role
	handler Handler
	logger  *slog.Logger
	timeout time.Duration
	drain   time.Duration // Options.DrainTimeout, defaulted

	ctx    context.Context // parent of handler contexts; cancelled with the close cause
	cancel context.CancelCauseFunc

	nextID      atomic.Int64
	outstanding atomic.Int64
	draining    atomic.Bool   // Shutdown called: new requests are refused
	idle        chan struct{} // closed when draining and no request is in flight; guarded by mu
	maxQueued   int64

	mu       sync.Mutex
	pending  map[protocol.ID]*call
	progress map[protocol.ID]func(*protocol.ProgressParams)
	inflight map[protocol.ID]context.CancelCauseFunc
	// abandoned rings the ids of the last calls cancelled locally, whose
	// responses may still arrive.
	abandoned     [32]protocol.ID
	abandonedNext int
	sentBatches   map[*sentBatch]struct{} // batches waiting for their responses (see Batch)
	closed        bool
	closeErr      error
	inputErr      error // why the input ended (io.EOF), while the session drains
	connErr       error // what closing the transport reported
	state         lifecycle
	version       string
	logLevel      protocol.LoggingLevel
	clientCap     *protocol.ClientCapabilities
	client        *protocol.Implementation
	serverCap     *protocol.ServerCapabilities
	server        *protocol.Implementation

	pool       workerPool
	handlers   sync.WaitGroup // the workers
	drainer    sync.WaitGroup // the goroutine draining after end of input (drainInput)
	readerDone chan struct{}  // closed when reading has ended: no response can arrive after
	done       chan struct{}
}

type lifecycle int

const (
	stateNew         lifecycle = iota
	stateInitialized           // initialize answered (server) or completed (client)
	stateReady                 // notifications/initialized received or sent
)

type call struct {
	method string
	done   chan struct{}      // closed once resp or err is set
	resp   *protocol.Response // set once, under Session.mu
	err    error              // set instead of resp when the transport lost the answer
}

// New starts a session over conn. The session owns conn and closes it when
// the session ends.
func New(conn transport.Conn, opts Options) *Session {
	logger := opts.Logger
	if logger == nil {
		logger = slog.Default()
	}
	maxc := opts.MaxConcurrency
	if maxc <= 0 {
		maxc = 64
	}
	maxq := opts.MaxQueued
	if maxq <= 0 {
		maxq = 10000
	}
	drain := opts.DrainTimeout
	if drain == 0 {
		drain = DefaultDrainTimeout
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	s := &Session{
		conn:       conn,
		role:       opts.Role,
		handler:    opts.Handler,
		logger:     logger.With("role", opts.Role.String()),
		timeout:    opts.CallTimeout,
		drain:      drain,
		ctx:        ctx,
		cancel:     cancel,
		maxQueued:  int64(maxc + maxq),
		pending:    map[protocol.ID]*call{},
		progress:   map[protocol.ID]func(*protocol.ProgressParams){},
		inflight:   map[protocol.ID]context.CancelCauseFunc{},
		readerDone: make(chan struct{}),
		done:       make(chan struct{}),
	}
	s.pool.max = maxc
	s.pool.cond.L = &s.pool.mu
	if opts.Version != "" {
		s.version = opts.Version
		s.state = stateReady
	}
	if dc, ok := conn.(transport.DirectConn); ok {
		dc.SetDirect(s.serveDirect)
	} else {
		// A session fed by its own reading goroutine (stdio, pipes) is
		// usually one of few in its process, and its workers spin a little
		// before parking; with calls arriving on goroutines of their own
		// (HTTP, many sessions) spinning workers would compete with them.
		s.pool.spin = true
		s.pool.relay = true
	}
	if s.pool.relay {
		// The first worker takes the reading role.
		s.pool.workers, s.pool.reading, s.pool.readPending = 1, true, true
		s.handlers.Add(1)
		go s.work()
	} else {
		go s.readLoop()
	}
	return s
}

// Conn returns the transport connection the session runs on, for access to
// transport-specific features (such as closing one HTTP stream).
func (s *Session) Conn() transport.Conn { return s.conn }

// Role returns the side this session plays.
func (s *Session) Role() Role { return s.role }

// Logger returns the session's logger.
func (s *Session) Logger() *slog.Logger { return s.logger }

// Context returns a context that is done when the session ends; its cause
// says why. Use it to tie work to the session's lifetime.
func (s *Session) Context() context.Context { return s.ctx }

// Done returns a channel closed when the session has ended.
func (s *Session) Done() <-chan struct{} { return s.done }

// InputDone returns a channel closed once the session has stopped reading:
// the peer ended its input (the requests read are still being answered;
// see Options.DrainTimeout) or the session ended. No request or response
// arrives after it. A handler that waits for more from the peer, such as a
// subscription, should end then.
func (s *Session) InputDone() <-chan struct{} { return s.readerDone }

// Err returns why the session ended, or nil while it is open. A session that
// ended because the peer closed the stream cleanly reports an error wrapping
// io.EOF.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closeErr
}

// Close ends the session: it closes the transport (returning what that
// reports, such as a server subprocess's exit status), cancels the contexts of
// running handlers (cause ErrClosed), fails pending calls, and waits until the
// reading goroutine and every handler have returned. Handlers must return
// when their context is done.
func (s *Session) Close() error {
	s.shutdown(ErrClosed)
	<-s.readerDone
	s.drainer.Wait()
	s.handlers.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.connErr
}

// Shutdown ends the session gracefully: new requests are refused with an
// error saying the server is shutting down, requests in flight may finish
// until ctx is done, and then the session is closed as by Close (cancelling
// what is still running). It returns ctx's error when it had to cut
// requests short, else what Close returns.
func (s *Session) Shutdown(ctx context.Context) error {
	err := s.settle(ctx, ErrClosed)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	return err
}

// settle refuses new requests, waits until none is in flight and flushes
// the transport; when ctx is done first it returns ctx's error (a flush cut
// short ends the session with cause). The caller closes the session.
func (s *Session) settle(ctx context.Context, cause error) error {
	s.mu.Lock()
	if s.idle == nil {
		s.idle = make(chan struct{})
	}
	idle := s.idle
	s.draining.Store(true)
	if s.outstanding.Load() == 0 {
		s.closeIdleLocked()
	}
	s.mu.Unlock()
	select {
	case <-idle:
		return s.flush(ctx, cause)
	case <-s.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// endInput is called by the reader when the peer has ended its input
// (cause wraps io.EOF): outgoing calls fail from now on, and a goroutine
// of the session's, drainInput, lets the requests already read finish
// before it closes the session.
func (s *Session) endInput(cause error) {
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.inputErr = cause
	}
	s.mu.Unlock()
	if closed {
		return
	}
	if s.drain < 0 {
		s.shutdown(cause)
		return
	}
	// Added before readerDone is closed, so before Close or Wait wait.
	s.drainer.Add(1)
	go s.drainInput(cause)
}

// drainInput waits, at most the drain timeout, for the requests in flight
// to be answered and their responses flushed, then closes the session with
// cause. It returns at once if the session is closed meanwhile.
func (s *Session) drainInput(cause error) {
	defer s.drainer.Done()
	ctx, cancel := context.WithTimeout(context.Background(), s.drain)
	defer cancel()
	if err := s.settle(ctx, cause); err != nil {
		s.logger.Warn("the input ended; requests still running after the drain timeout are cancelled", "timeout", s.drain)
	}
	s.shutdown(cause)
}

// flush writes out what the transport holds back (see transport.Flusher)
// before a graceful shutdown closes it, so that the last responses reach
// the peer. When ctx is done first it closes the session (which unblocks
// the write) and returns ctx's error.
func (s *Session) flush(ctx context.Context, cause error) error {
	f, ok := s.conn.(transport.Flusher)
	if !ok {
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := f.Flush(); err != nil && !errors.Is(err, transport.ErrClosed) {
			s.logger.Warn("writing the last messages failed", "error", err)
		}
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.shutdown(cause)
		<-done
		return ctx.Err()
	}
}

// closeIdleLocked signals Shutdown that no request is in flight; s.mu held.
func (s *Session) closeIdleLocked() {
	select {
	case <-s.idle:
	default:
		close(s.idle)
	}
}

// requestDone accounts for the end of a request.
func (s *Session) requestDone() {
	if s.outstanding.Add(-1) == 0 && s.draining.Load() {
		s.mu.Lock()
		if s.idle != nil {
			s.closeIdleLocked()
		}
		s.mu.Unlock()
	}
}

// Wait blocks until the session has ended and all its goroutines have
// returned, and reports why it ended (nil when the peer closed the stream
// cleanly or Close was called).
func (s *Session) Wait() error {
	<-s.readerDone
	<-s.done // after the end of input, the session drains first
	s.drainer.Wait()
	s.handlers.Wait()
	err := s.Err()
	if errors.Is(err, ErrClosed) || isEOF(err) {
		return nil
	}
	return err
}

// shutdown ends the session once, recording cause.
func (s *Session) shutdown(cause error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.closeErr = cause
	s.mu.Unlock()
	closed := fmt.Errorf("%w: %w", ErrClosed, cause)
	s.cancel(closed)
	// The contexts of the requests in flight are not children of s.ctx
	// (see admitCall): cancel them here. None is added once closed is set.
	s.mu.Lock()
	for _, cancel := range s.inflight {
		cancel(closed)
	}
	s.mu.Unlock()
	s.pool.close()
	err := s.conn.Close()
	s.mu.Lock()
	s.connErr = err
	s.mu.Unlock()
	close(s.done)
}

// closedError is what a call gets once the session has ended.
func (s *Session) closedError() error {
	s.mu.Lock()
	err := s.closeErr
	if err == nil {
		err = s.inputErr
	}
	s.mu.Unlock()
	if err == nil || errors.Is(err, ErrClosed) {
		return ErrClosed
	}
	return fmt.Errorf("%w: %w", ErrClosed, err)
}

// readLoop is the reading goroutine of a session without relay.
func (s *Session) readLoop() { s.read() }

// read holds the reading role: it reads messages and routes them until
// the transport fails or ends, or, with relay, until it has handed the
// role to another worker; then it returns the call it kept to serve.
func (s *Session) read() (job, bool) {
	for {
		msg, err := s.conn.Read(s.ctx)
		if err != nil {
			if ce, ok := errors.AsType[*transport.CallError](err); ok {
				s.fail(ce.ID, ce)
				continue
			}
			if de, ok := errors.AsType[*protocol.DecodeError](err); ok {
				s.badMessage(de)
				continue
			}
			if isEOF(err) {
				s.endInput(err) // no more requests; answer those read
			} else {
				if !errors.Is(err, transport.ErrClosed) && s.ctx.Err() == nil {
					s.logger.Warn("transport read failed", "error", err)
				}
				s.shutdown(err)
			}
			s.pool.stopReading()
			close(s.readerDone)
			return job{}, false
		}
		switch m := msg.(type) {
		case *protocol.Response:
			s.deliver(m)
		case *protocol.Batch:
			s.batch(m)
		case *protocol.Request:
			if !m.IsCall() {
				s.notification(m)
				break
			}
			j, ok := s.admitCall(m, nil)
			if !ok {
				break
			}
			if s.handOff() {
				return j, true
			}
			s.enqueue(j)
		}
	}
}

// write sends msg, logging failures (the caller has no one to report to).
func (s *Session) write(ctx context.Context, msg protocol.Message) {
	if err := s.conn.Write(ctx, msg); err != nil && !errors.Is(err, transport.ErrClosed) && s.ctx.Err() == nil {
		s.logger.Warn("writing message failed", "error", err)
	}
}

// answer sends the response to an incoming call: on its own, or with the
// other responses of its batch when b is not nil.
func (s *Session) answer(b *batchReply, resp *protocol.Response) {
	if b != nil {
		b.add(resp)
		return
	}
	s.write(transport.WithRelatedRequest(context.Background(), resp.ID), resp)
}

func (s *Session) respondError(b *batchReply, id protocol.ID, err *protocol.Error) {
	s.answer(b, &protocol.Response{ID: id, Error: err})
}

// wasAbandoned reports whether id is one of the calls recently cancelled.
func (s *Session) wasAbandoned(id protocol.ID) bool {
	if !id.IsValid() {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.abandoned[:], id)
}

// badMessage deals with a message the transport could not read: a request
// (or a message of unknown kind) is answered with the error; a response,
// which is never answered, fails the call it answers.
func (s *Session) badMessage(de *protocol.DecodeError) {
	if !de.NotRequest {
		s.logger.Warn("bad message from peer", "error", de.Err.Message)
		s.write(context.Background(), de.Response())
		return
	}
	cause := de.Cause
	if cause == nil {
		cause = errors.New(de.Err.Message)
	}
	if !s.fail(de.ID, &transport.CallError{ID: de.ID, Err: cause}) {
		s.logger.Warn("ignoring a response that could not be read", "id", de.ID.String(), "error", cause)
	}
}

// fail ends the pending call id with err instead of a response (the
// transport lost the answer). It reports whether such a call was waiting.
func (s *Session) fail(id protocol.ID, err error) bool {
	if !id.IsValid() {
		return false
	}
	s.mu.Lock()
	c := s.pending[id]
	ok := c != nil && c.resp == nil && c.err == nil
	if ok {
		c.err = err
		close(c.done)
	}
	s.mu.Unlock()
	if !ok {
		s.logger.Debug("transport failure for no pending call", "id", id.String(), "error", err)
	}
	return ok
}

// deliver routes a response to the call waiting for it.
func (s *Session) deliver(resp *protocol.Response) {
	s.mu.Lock()
	c := s.pending[resp.ID]
	first := c != nil && c.resp == nil && c.err == nil
	if first {
		c.resp = resp
		close(c.done)
	}
	s.mu.Unlock()
	switch {
	case c == nil && !resp.ID.IsValid() && resp.Error != nil && s.failBatches(resp.Error):
		s.logger.Warn("the peer refused a batch", "error", resp.Error.Message)
	case c == nil && s.wasAbandoned(resp.ID):
		s.logger.Debug("ignoring late response to a cancelled call", "id", resp.ID.String())
	case c == nil:
		s.logger.Warn("ignoring response for unknown request id", "id", resp.ID.String())
	case !first:
		s.logger.Warn("ignoring duplicate response", "id", resp.ID.String())
	}
}

// admitCall applies the lifecycle rules and the bounds to an incoming call
// and registers it as in flight. It returns the job that serves it, or
// false when the call has been answered already (an error, a legacy ping)
// or dropped (the session ended). b is the batch the call came in, if any:
// its answer goes there, whatever happens to it.
func (s *Session) admitCall(m *protocol.Request, b *batchReply) (job, bool) {
	meta, err := protocol.ParseRequestMeta(m.Params)
	if err != nil {
		s.respondError(b, m.ID, protocol.Errorf(protocol.CodeInvalidParams, "Invalid params: _meta: %v", err))
		return job{}, false
	}
	// The request and its response in one allocation.
	a := &struct {
		req  Request
		resp protocol.Response
	}{req: Request{Session: s, ID: m.ID, Method: m.Method, Params: m.Params, Meta: meta, HTTP: httpInfo(m), msg: m}}
	req := &a.req
	if perr := s.admit(req); perr != nil {
		s.respondError(b, m.ID, perr)
		return job{}, false
	}
	if req.Method == protocol.MethodPing && !req.Modern {
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
	// removal from) the parent, under the parent's lock.
	ctx, cancel := context.WithCancelCause(context.Background())
	s.inflight[m.ID] = cancel
	s.mu.Unlock()
	return job{ctx: ctx, cancel: cancel, req: req, resp: &a.resp, batch: b}, true
}

// serveDirect is the engine's side of transport.DirectConn: it admits a
// call on the goroutine that received it (saving the hop through the
// reading goroutine) and, when inline is set, a turn is free and no
// request waits for one, serves it right there (saving the hop to a
// worker); otherwise it hands the call to a worker. It reports whether it
// took the message: notifications and responses go through Read, in
// order, as before.
func (s *Session) serveDirect(m *protocol.Request, inline bool) bool {
	if !m.IsCall() {
		return false
	}
	j, ok := s.admitCall(m, nil)
	if !ok {
		return true
	}
	if inline && s.pool.takeTurn(&s.handlers) {
		defer s.pool.endTurn(&s.handlers)
		s.serve(j)
		return true
	}
	s.enqueue(j)
	return true
}

var emptyObject = json.RawMessage("{}")

// admit applies the lifecycle rules to an incoming call and settles which
// revision it is served under. It returns the error to answer with, if any.
func (s *Session) admit(req *Request) *protocol.Error {
	if v := req.Meta.ProtocolVersion; v != "" {
		if !protocol.IsSupported(v) {
			return unsupportedVersion(v)
		}
		if protocol.IsModern(v) {
			if req.Meta.ClientCapabilities == nil {
				return protocol.Errorf(protocol.CodeInvalidParams,
					"Invalid params: params._meta must carry %s (the client's capabilities for this request; {} for none)", protocol.MetaClientCapabilities)
			}
			req.Modern = true
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
		if err := protocol.Unmarshal(orEmpty(req.Params), &p); err != nil {
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

func orEmpty(v json.RawMessage) json.RawMessage {
	if len(v) == 0 {
		return emptyObject
	}
	return v
}

// serve runs the handler for one call and answers it.
func (s *Session) serve(j job) {
	ctx, cancel, req := j.ctx, j.cancel, j.req
	defer s.requestDone()
	defer cancel(context.Canceled)
	// The related ctx serves the handler and, without its cancellation, the
	// final write (WithoutCancel keeps its values).
	rctx := transport.WithRelatedRequest(ctx, req.ID)
	var (
		result any
		err    error
	)
	if ctx.Err() == nil {
		result, err = s.invoke(rctx, req)
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
	s.write(context.WithoutCancel(rctx), resp)
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

// notification handles an incoming notification on the reading goroutine.
func (s *Session) notification(m *protocol.Request) {
	switch m.Method {
	case protocol.NotificationCancelled:
		var p protocol.CancelledParams
		if err := protocol.Unmarshal(orEmpty(m.Params), &p); err != nil {
			s.logger.Warn("bad notifications/cancelled", "error", err)
			return
		}
		s.mu.Lock()
		cancel := s.inflight[p.RequestID]
		s.mu.Unlock()
		if cancel != nil {
			cancel(ErrCancelledByPeer)
		}
		return
	case protocol.NotificationProgress:
		var p protocol.ProgressParams
		if err := protocol.Unmarshal(orEmpty(m.Params), &p); err == nil {
			s.mu.Lock()
			fn := s.progress[p.ProgressToken]
			s.mu.Unlock()
			if fn != nil {
				s.safely(m.Method, func() { fn(&p) })
				return
			}
		}
	case protocol.NotificationInitialized:
		s.mu.Lock()
		if s.role == RoleServer && s.state == stateInitialized {
			s.state = stateReady
		}
		s.mu.Unlock()
	}
	if s.handler == nil {
		return
	}
	meta, _ := protocol.ParseRequestMeta(m.Params)
	req := &Request{Session: s, Method: m.Method, Params: m.Params, Meta: meta, HTTP: httpInfo(m)}
	s.mu.Lock()
	req.Version = s.version
	s.mu.Unlock()
	if v := meta.ProtocolVersion; protocol.IsModern(v) {
		req.Version, req.Modern = v, true
	}
	s.safely(m.Method, func() { _, _ = s.handler.Handle(s.ctx, req) })
}

func (s *Session) safely(method string, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			s.logger.Error("notification handler panicked", "method", method, "panic", r, "stack", string(debug.Stack()))
		}
	}()
	fn()
}

func isEOF(err error) bool { return errors.Is(err, io.EOF) }
