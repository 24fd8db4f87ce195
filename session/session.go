package session

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

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
	// others wait their turn (reading never waits for a turn, so responses
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
	// Initialized, with Version, starts a server session as if the client
	// had already initialized it with these params: ClientCapabilities and
	// ClientInfo return theirs. A replica that takes over a session another
	// replica initialized (transport.ConnInfo.Adopted) uses it.
	Initialized *protocol.InitializeParams
	// LogLevel, when set, starts the session with this level, as if the
	// client had sent logging/setLevel.
	LogLevel protocol.LoggingLevel
	// RequestIDPrefix, when set, makes the ids of the requests the session
	// sends strings: the prefix followed by a counter. Replicas sharing a
	// session give each a prefix of its own, so that the client's answer,
	// wherever it lands, names the replica waiting for it.
	RequestIDPrefix string
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
// MaxConcurrency of them, on every transport alike. The reading is itself
// done by a worker, which, on reading a call that can be served at once,
// serves the call itself, so that its response does not wait for a
// goroutine to wake up, and then reads on; if the call still runs 100 µs
// after it was read, an idle worker is woken to read on instead, so a slow
// handler holds up the reading of the next message by 100 µs (plus the
// time to wake a worker) at most. A worker that finds no request waiting
// stays parked for the next one, so that a busy session does not pay for
// a new goroutine (and its stack growth) per request; parked workers exit when the session has served no request for
// a second, and at most 16 stay parked. Close stops reading, cancels every
// handler's context, fails every pending call and waits for the reader
// and every worker to exit. When the peer ends its input (io.EOF), the
// session takes no more requests, fails pending calls, and answers the
// requests already read (see Options.DrainTimeout) before it closes. All
// methods are safe for concurrent use.
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
	idPrefix    string // Options.RequestIDPrefix
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
		if p := opts.Initialized; p != nil && opts.Role == RoleServer {
			caps, info := p.Capabilities, p.ClientInfo
			s.clientCap, s.client = &caps, &info
		}
	}
	s.logLevel = opts.LogLevel
	s.idPrefix = opts.RequestIDPrefix
	// The first worker takes the reading role.
	s.pool.workers, s.pool.reading, s.pool.readPending = 1, true, true
	s.handlers.Add(1)
	go s.work()
	return s
}

// newID returns the id of the next request the session sends.
func (s *Session) newID() protocol.ID {
	n := s.nextID.Add(1)
	if s.idPrefix == "" {
		return protocol.Int64ID(n)
	}
	return protocol.StringID(s.idPrefix + strconv.FormatInt(n, 10))
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
