package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/callopt"
	"github.com/fastmcp-go/fastmcp/internal/clientlink"
	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// Client is a connection to an MCP server. Create one with Connect (any
// transport), ConnectCommand (a server subprocess over stdio) or
// ConnectHTTP. All methods are safe for concurrent use.
type Client struct {
	sess *session.Session
	cfg  config
	init *protocol.InitializeResult
	era  protocol.Era  // Modern: speaking 2026-07-28, no handshake, _meta on every request
	meta protocol.Meta // the _meta entries of every modern request
	subs resourceSubs  // resources/subscribe callbacks (client_resources.go)

	// paramHeaders: tools/call mirrors x-mcp-header arguments into
	// Mcp-Param-* headers, and tools with invalid annotations are dropped
	// (2026-07-28 over Streamable HTTP). toolDefs is what that needs from
	// tools/list (client_headers.go).
	paramHeaders bool
	toolDefs     toolCache

	listenMu     sync.Mutex
	listenCancel context.CancelFunc // stops the subscriptions/listen call
	listenDone   chan struct{}      // closed when it has returned
	ackMu        sync.Mutex         // guards listenAck, ackOnce and restoring
	listenAck    chan struct{}      // closed when the server acknowledged it
	ackOnce      *sync.Once
	restoring    bool // the listen being sent replaces one that ended (WithListenRestoredHandler)

	onClose func() // run by Close after the session has closed (ConnectHTTP's own idle connections)

	sender SendFunc // the client middleware around sess.Call; nil without any (client_middleware.go)

	proxy atomic.Pointer[clientlink.Backend] // the proxy (package proxy) built on this client, if any
}

// An Option configures a Client (Connect, ConnectHTTP, ConnectCommand).
type Option interface{ apply(*config) }

type option func(*config)

func (f option) apply(c *config) { f(c) }

type config struct {
	info             protocol.Implementation
	version          string
	logger           *slog.Logger
	callTimeout      time.Duration
	onLog            func(*protocol.LoggingMessageParams)
	onListChanged    func(method string)
	onUpdated        func(uri string)
	onListenRestored func()
	handlers         clientHandlers
	logLevel         protocol.LoggingLevel
	maxRounds        int
	reissues         int // WithReissueLimit
	httpClient       *http.Client
	httpHeader       http.Header
	maxMessageSize   int
	probeTimeout     time.Duration
	oauth            HTTPAuthorizer
	middleware       []Middleware
	forward          bool     // WithRequestForwarding
	appMIMETypes     []string // WithApps
}

// DefaultDiscoverTimeout bounds the server/discover probe of an automatic
// Connect (see WithDiscoverTimeout).
const DefaultDiscoverTimeout = 5 * time.Second

// WithDiscoverTimeout bounds the server/discover probe Connect sends, when no
// WithProtocolVersion is set, to find out whether the server speaks 2026-07-28.
// A server that has not answered by then is taken for a legacy one (some
// ignore requests before initialize) and the initialize handshake follows,
// within what is left of Connect's context. Default:
// DefaultDiscoverTimeout (5 s): a modern server answers server/discover
// without doing any work, so only an unresponsive server takes that long.
// Negative means no bound but Connect's context.
func WithDiscoverTimeout(d time.Duration) Option {
	return option(func(c *config) { c.probeTimeout = d })
}

// WithInfo sets how the client identifies itself. Default: name
// "fastmcp-client", version "0".
func WithInfo(name, version string) Option {
	return option(func(c *config) { c.info.Name, c.info.Version = name, version })
}

// WithLogger sets the client's logger. Default: slog.Default().
func WithLogger(l *slog.Logger) Option {
	return option(func(c *config) { c.logger = l })
}

// WithProtocolVersion sets the protocol revision the client speaks. A modern
// revision (2026-07-28) is spoken without a handshake; a legacy one
// (2024-11-05 to 2025-11-25) is negotiated with initialize. Default: modern
// when the server speaks it, found with a server/discover probe, else the
// latest legacy revision the server accepts.
func WithProtocolVersion(v string) Option {
	return option(func(c *config) { c.version = v })
}

// WithLogLevel sets the least severe log level the client asks for. On legacy
// revisions it is sent with logging/setLevel after connecting; on 2026-07-28
// it rides in every request's _meta. Default: debug when WithLogHandler is set (every
// message), else none on 2026-07-28 (servers then send no log messages) and
// the server's default on legacy revisions.
func WithLogLevel(l LogLevel) Option {
	return option(func(c *config) { c.logLevel = l })
}

// WithMaxInputRounds bounds how many times a 2026-07-28 request is retried to
// answer the server's input requests (multi round-trip). Default 8.
func WithMaxInputRounds(n int) Option {
	return option(func(c *config) { c.maxRounds = n })
}

// WithCallTimeout bounds every request the client sends. Default: none
// beyond the caller's context.
func WithCallTimeout(d time.Duration) Option {
	return option(func(c *config) { c.callTimeout = d })
}

// WithLogHandler sets a function called with every log message the server sends
// (notifications/message). It runs on the connection's reading goroutine, in
// order: it must not block.
func WithLogHandler(fn func(*LogMessage)) Option {
	return option(func(c *config) { c.onLog = fn })
}

// WithListChangedHandler sets a function called when the server says a list changed;
// method is the notification's method, such as
// notifications/tools/list_changed. It must not block.
func WithListChangedHandler(fn func(method string)) Option {
	return option(func(c *config) { c.onListChanged = fn })
}

// Connect connects to the server at the other end of conn and returns the
// client. The client owns conn: Close closes it. ctx bounds the connection
// set-up only.
//
// Unless WithProtocolVersion says otherwise, Connect probes with server/discover
// (protocol 2026-07-28) and speaks the modern protocol when the server
// answers it; otherwise (a legacy server) it performs the initialize
// handshake.
func Connect(ctx context.Context, conn transport.Conn, opts ...Option) (*Client, error) {
	cfg := config{info: protocol.Implementation{Name: "fastmcp-client", Version: "0"}, maxRounds: 8, reissues: DefaultReissueLimit}
	for _, o := range opts {
		o.apply(&cfg)
	}
	if cfg.logger == nil {
		cfg.logger = slog.Default()
	}
	if cfg.logLevel == "" && (cfg.onLog != nil || cfg.forward) {
		cfg.logLevel = protocol.LevelDebug // a proxy filters for each caller
	}
	if cfg.version != "" && !protocol.IsSupported(cfg.version) {
		return nil, fmt.Errorf("client: protocol version %q is not supported; choose one of %v", cfg.version, protocol.SupportedVersions())
	}
	c := &Client{cfg: cfg}
	c.sess = session.New(conn, session.Options{
		Role:        session.RoleClient,
		Handler:     session.HandlerFunc(c.handle),
		Logger:      cfg.logger,
		CallTimeout: cfg.callTimeout,
	})
	c.sender = c.buildSender()
	clientlink.Register(link)
	err := c.handshake(ctx)
	if err != nil {
		c.sess.Close()
		return nil, connectError(err)
	}
	if _, ok := conn.(*transport.StreamableClient); ok && c.era.Stateless() {
		c.paramHeaders = true
	}
	if c.era.Stateless() && (c.cfg.onListChanged != nil || c.cfg.forward) {
		c.relisten(ctx)
	}
	return c, nil
}

// handshake connects at the configured version, or probes for one. A
// server that is starting or stopping (503 with Retry-After, as a replica
// in a rolling deploy answers) is asked again after the wait it names (see
// startingWait), for at most DefaultStartingWait in all, bounded by ctx.
func (c *Client) handshake(ctx context.Context) error {
	var waited time.Duration
	for {
		var err error
		switch v := c.cfg.version; {
		case v == "":
			err = c.connectAuto(ctx)
		case protocol.EraOf(v).Stateless():
			err = c.discoverRetry(ctx, v)
		default:
			err = c.initialize(ctx, v)
		}
		d, ok := startingWait(err)
		if !ok || waited+d > DefaultStartingWait || c.sess.Err() != nil {
			return err
		}
		c.cfg.logger.Debug("server is starting or stopping; connecting again", "after", d, "error", err)
		if err := sleepCtx(ctx, d); err != nil {
			return err
		}
		waited += d
	}
}

// relisten (re)starts the subscriptions/listen call of a modern client with
// the current filter: list changes when WithListChangedHandler is set, plus the
// subscribed resources. The call runs on a goroutine owned by the client;
// Close stops it. relisten returns once the server acknowledged the
// subscription (or refused it, or ctx is done).
//
// A listen that ends while the client is open (its stream broke, or the
// server ended it at shutdown) is sent again (see keepListening), so that a
// client behind a load balancer keeps its notifications when a replica goes
// away.
func (c *Client) relisten(ctx context.Context) {
	c.listenMu.Lock()
	c.stopListenLocked()
	filter := protocol.SubscriptionFilter{ResourceSubscriptions: c.subscribedURIs()}
	if c.cfg.onListChanged != nil || c.cfg.forward {
		filter.ToolsListChanged, filter.PromptsListChanged, filter.ResourcesListChanged = true, true, true
	}
	if !filter.ToolsListChanged && len(filter.ResourceSubscriptions) == 0 {
		c.listenMu.Unlock()
		return
	}
	lctx, cancel := context.WithCancel(context.WithValue(context.Background(), noReissueKey{}, true))
	done, ack := make(chan struct{}), make(chan struct{})
	c.listenCancel, c.listenDone = cancel, done
	c.ackMu.Lock()
	c.listenAck, c.ackOnce, c.restoring = ack, &sync.Once{}, false
	c.ackMu.Unlock()
	c.listenMu.Unlock()
	go func() {
		defer close(done)
		c.keepListening(lctx, &filter)
	}()
	select {
	case <-ack:
	case <-done:
	case <-ctx.Done():
	}
}

// maxListenFailures is how many listens in a row may end without being
// acknowledged, or end gracefully, before the client stops sending them.
const maxListenFailures = 10

// keepListening sends subscriptions/listen with filter until ctx (the
// listen's own) is done, sending it again, after a growing delay, whenever
// it ends: its stream broke (a replica went away) or the server ended it
// (shutting down). It gives up when the server refuses it with a JSON-RPC
// error, when the client is closed or its session expired, and after
// maxListenFailures listens in a row that ended before their
// acknowledgment or gracefully. Each listen acknowledged after the first
// calls the WithListenRestoredHandler function.
func (c *Client) keepListening(ctx context.Context, filter *protocol.SubscriptionFilter) {
	failures := 0
	for attempt := 0; ; attempt++ {
		// Not listenMu: Close and relisten hold it while they wait for
		// this goroutine to end.
		c.ackMu.Lock()
		ack := c.listenAck
		if attempt > 0 {
			ack = make(chan struct{})
			c.listenAck, c.ackOnce, c.restoring = ack, &sync.Once{}, true
		}
		c.ackMu.Unlock()
		err := c.call(ctx, protocol.MethodSubscriptionsListen, &protocol.SubscriptionsListenParams{Notifications: *filter}, nil)
		if ctx.Err() != nil {
			return
		}
		acked := false
		select {
		case <-ack:
			acked = true
		default:
		}
		switch {
		case err != nil && !lostInTransit(err):
			c.cfg.logger.Debug("subscriptions/listen ended", "error", err)
			return
		case err != nil && acked:
			failures = 1 // it worked until its stream broke
		default:
			failures++
		}
		if failures > maxListenFailures {
			c.cfg.logger.Warn("subscriptions/listen keeps ending; giving up change notifications", "attempts", failures, "error", err)
			return
		}
		c.cfg.logger.Debug("subscriptions/listen ended; listening again", "error", err)
		if sleepCtx(ctx, reissueDelay(failures)) != nil {
			return
		}
	}
}

// acknowledged records the server's notifications/subscriptions/acknowledged.
func (c *Client) acknowledged() {
	c.ackMu.Lock()
	ack, once, restored := c.listenAck, c.ackOnce, c.restoring
	c.restoring = false
	c.ackMu.Unlock()
	if once != nil {
		once.Do(func() { close(ack) })
	}
	if restored && c.cfg.onListenRestored != nil {
		c.cfg.onListenRestored()
	}
}

// stopListenLocked stops the listen call; c.listenMu held.
func (c *Client) stopListenLocked() {
	if c.listenCancel != nil {
		c.listenCancel()
		<-c.listenDone
		c.listenCancel, c.listenDone = nil, nil
	}
}

// connectAuto probes for a modern server and falls back to the handshake,
// as the 2026-07-28 backward-compatibility rules describe: a recognised
// modern error (UnsupportedProtocolVersion) means a modern server; any
// other failure means a legacy one, except a failure to authorize, which
// is final (the handshake would only authorize again), and a server that
// says it is starting (503 with Retry-After), which handshake asks again.
func (c *Client) connectAuto(ctx context.Context) error {
	err := c.probe(ctx, protocol.LatestVersion)
	if err == nil {
		return nil
	}
	for _, v := range supportedVersions(err) {
		if protocol.IsSupported(v) && protocol.EraOf(v).Stateless() {
			return c.discover(ctx, v)
		}
	}
	if _, starting := startingWait(err); starting || c.sess.Err() != nil || ctx.Err() != nil || authFailed(err) {
		return err
	}
	c.cfg.logger.Debug("server did not answer server/discover as a modern server; using the initialize handshake", "error", err)
	return c.initialize(ctx, protocol.LatestLegacyVersion)
}

// errProbeTimeout is the cause of a server/discover probe cut short.
var errProbeTimeout error = &sentinel{"client: no answer to server/discover within the discover timeout"}

// probe is discover bounded by the WithDiscoverTimeout setting.
func (c *Client) probe(ctx context.Context, v string) error {
	d := c.cfg.probeTimeout
	if d == 0 {
		d = DefaultDiscoverTimeout
	}
	if d < 0 {
		return c.discover(ctx, v)
	}
	pctx, cancel := context.WithTimeoutCause(ctx, d, errProbeTimeout)
	defer cancel()
	err := c.discover(pctx, v)
	if err != nil && ctx.Err() == nil && pctx.Err() != nil {
		return context.Cause(pctx)
	}
	return err
}

// discoverRetry is discover for a version the user chose: when the server
// refuses the first request with UnsupportedProtocolVersion but lists v
// among the versions it supports (a server may refuse a first request to
// test the client, or have been upgraded in between), it tries once more.
func (c *Client) discoverRetry(ctx context.Context, v string) error {
	err := c.discover(ctx, v)
	if err != nil && slices.Contains(supportedVersions(err), v) {
		c.cfg.logger.Debug("server refused the protocol version it lists as supported; retrying", "version", v)
		err = c.discover(ctx, v)
	}
	if perr, ok := errors.AsType[*protocol.Error](err); ok {
		// The server answered, but not as one speaking v does (a legacy
		// server answers "Method not found" or asks for initialize).
		if vs := supportedVersions(err); vs != nil {
			return fmt.Errorf("server does not support protocol %s; it supports %v (server/discover: %w)", v, vs, perr)
		}
		return fmt.Errorf("server does not support protocol %s (server/discover: %w)", v, perr)
	}
	return err
}

// supportedVersions returns the versions an UnsupportedProtocolVersion
// error lists in data.supported, or nil for any other error.
func supportedVersions(err error) []string {
	if !errors.Is(err, protocol.ErrUnsupportedProtocolVersion) {
		return nil
	}
	var data protocol.UnsupportedProtocolVersionData
	if perr, ok := errors.AsType[*protocol.Error](err); ok && protocol.Unmarshal(perr.Data, &data) == nil {
		return data.Supported
	}
	return nil
}

// discover speaks the modern protocol at version v: server/discover gives
// the server's identity and capabilities.
func (c *Client) discover(ctx context.Context, v string) error {
	c.era = protocol.Modern
	c.meta = protocol.Meta{
		protocol.MetaProtocolVersion:    v,
		protocol.MetaClientInfo:         c.cfg.info,
		protocol.MetaClientCapabilities: c.capabilities(v),
	}
	if c.cfg.logLevel != "" {
		c.meta[protocol.MetaLogLevel] = c.cfg.logLevel
	}
	var res struct {
		protocol.DiscoverResult
	}
	var raw jsontext.Value
	if err := c.call(ctx, protocol.MethodServerDiscover, nil, &raw); err != nil {
		c.era, c.meta = protocol.Legacy, nil
		return err
	}
	if err := protocol.Unmarshal(raw, &res.DiscoverResult); err != nil || len(res.SupportedVersions) == 0 {
		c.era, c.meta = protocol.Legacy, nil
		return fmt.Errorf("client: server/discover answer is not a discover result: %s", raw)
	}
	if !slices.Contains(res.SupportedVersions, v) {
		c.era, c.meta = protocol.Legacy, nil
		return fmt.Errorf("%w: the server supports %v", protocol.ErrUnsupportedProtocolVersion, res.SupportedVersions)
	}
	init := &protocol.InitializeResult{ProtocolVersion: v, Capabilities: res.Capabilities, Instructions: res.Instructions}
	if info, ok := res.Meta[protocol.MetaServerInfo]; ok {
		if b, err := protocol.Marshal(info); err == nil {
			_ = protocol.Unmarshal(b, &init.ServerInfo)
		}
	}
	c.init = init
	return nil
}

// initialize performs the legacy handshake asking for version v.
func (c *Client) initialize(ctx context.Context, v string) error {
	caps := c.capabilities(v)
	// Sent through the client's middleware, as every request is.
	res := new(protocol.InitializeResult)
	err := c.sendAt(ctx, v, protocol.MethodInitialize, &protocol.InitializeParams{
		ProtocolVersion: v,
		Capabilities:    caps,
		ClientInfo:      c.cfg.info,
	}, res)
	if err == nil {
		err = c.sess.Handshake(ctx, res)
	}
	if err != nil {
		return err
	}
	c.init = res
	if c.cfg.logLevel != "" && res.Capabilities.Logging != nil {
		if err := c.send(ctx, protocol.MethodLoggingSetLevel, &protocol.SetLevelParams{Level: c.cfg.logLevel}, nil); err != nil {
			c.cfg.logger.Debug("logging/setLevel failed", "error", err)
		}
	}
	return nil
}

// Command describes a stdio server to start as a subprocess: the program's
// Path and Args, the environment it gets (a small inherited set plus Env),
// its working Dir, where its stderr goes, and how long Close waits for it
// to exit (GracePeriod). See transport.Command for every field.
type Command = transport.Command

// ConnectCommand starts the server described by cmd as a subprocess and
// connects to it over its standard input and output. Close stops the
// subprocess:
//
//	c, err := client.ConnectCommand(ctx, &client.Command{Path: "./my-server", Args: []string{"serve"}})
func ConnectCommand(ctx context.Context, cmd *Command, opts ...Option) (*Client, error) {
	var cfg config
	for _, o := range opts {
		o.apply(&cfg)
	}
	if cmd.MaxMessageSize <= 0 && cfg.maxMessageSize > 0 {
		c := *cmd
		c.MaxMessageSize = cfg.maxMessageSize
		cmd = &c
	}
	conn, err := cmd.Start(ctx)
	if err != nil {
		return nil, err
	}
	return Connect(ctx, conn, opts...)
}

// handle serves what the server sends the client.
func (c *Client) handle(ctx context.Context, req *session.Request) (any, error) {
	switch req.Method {
	case protocol.NotificationMessage:
		if p := c.proxy.Load(); p != nil {
			(*p).ForwardNotification(req.Method, req.Params)
		}
		if c.cfg.onLog != nil {
			var p protocol.LoggingMessageParams
			if err := protocol.Unmarshal(req.Params, &p); err == nil {
				c.cfg.onLog(&p)
			}
		}
		return nil, nil
	case protocol.NotificationElicitationComplete:
		if p := c.proxy.Load(); p != nil {
			(*p).ForwardNotification(req.Method, req.Params)
		}
		return nil, nil
	case protocol.NotificationResourcesUpdated:
		var p protocol.ResourceUpdatedParams
		if err := protocol.Unmarshal(req.Params, &p); err == nil {
			c.resourceUpdated(&p)
		}
		return nil, nil
	case protocol.NotificationSubscriptionsAcknowledged:
		c.acknowledged()
		return nil, nil
	case protocol.NotificationToolsListChanged, protocol.NotificationPromptsListChanged, protocol.NotificationResourcesListChanged:
		if req.Method == protocol.NotificationToolsListChanged {
			c.invalidateTools()
		}
		if p := c.proxy.Load(); p != nil {
			(*p).ListChanged(req.Method)
		}
		if c.cfg.onListChanged != nil {
			c.cfg.onListChanged(req.Method)
		}
		return nil, nil
	}
	if req.IsNotification() {
		return nil, nil
	}
	return c.handleServerRequest(ctx, req)
}

// Close ends the connection (and stops a server subprocess).
func (c *Client) Close() error {
	c.listenMu.Lock()
	c.stopListenLocked()
	c.listenMu.Unlock()
	err := c.sess.Close()
	if c.onClose != nil {
		c.onClose()
	}
	return err
}

// Done returns a channel closed when the client's connection has ended:
// Close was called, the server ended its output (a server started by
// ConnectCommand exited, say), or the transport gave up on the server. A
// program that runs as long as its server does waits on it; Err then
// says why. Over Streamable HTTP a server that merely stops answering is
// seen by the next request, which fails, not by Done.
func (c *Client) Done() <-chan struct{} { return c.sess.Done() }

// Err returns why the client's connection ended (see Done), or nil while
// it is open. A server that closed its output cleanly gives an error
// wrapping io.EOF.
func (c *Client) Err() error { return c.sess.Err() }

// ProtocolVersion returns the protocol revision in use.
func (c *Client) ProtocolVersion() string { return c.init.ProtocolVersion }

// Era returns the shape of the protocol the client speaks:
// [Modern] (2026-07-28 or later: no handshake, and the client's
// details on every request) or [Legacy] (the initialize handshake).
func (c *Client) Era() Era { return c.era }

// ServerInfo returns the server's self-description.
func (c *Client) ServerInfo() *Implementation { return &c.init.ServerInfo }

// ServerCapabilities returns the capabilities the server declared.
func (c *Client) ServerCapabilities() *ServerCapabilities { return &c.init.Capabilities }

// Instructions returns the server's guidance for using it, if any.
func (c *Client) Instructions() string { return c.init.Instructions }

// Ping checks that the server is responsive (with ping on legacy revisions,
// server/discover on 2026-07-28, which has no ping).
func (c *Client) Ping(ctx context.Context) error {
	if c.era.Stateless() {
		return c.call(ctx, protocol.MethodServerDiscover, nil, nil)
	}
	return c.send(ctx, protocol.MethodPing, nil, nil)
}

// Call sends any request (params: a struct or map encoded as JSON, or a
// json.RawMessage sent as it is; nil for none) and decodes its result into
// result (nil discards it; a *json.RawMessage keeps it raw).
//
// On 2026-07-28 the request gets the client's _meta, and input_required
// results are answered and retried. That revision also adds members to
// every result: resultType, and the server's identity in _meta. Call
// removes them (and _meta when nothing else is left in it) before decoding,
// so result receives the same JSON on every revision: what the server's
// handler returned. The typed methods (CallTool, ReadResource, …) keep them
// in their results' ResultType and Meta fields.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	if !c.era.Stateless() {
		return c.send(ctx, method, params, result)
	}
	var raw json.RawMessage
	if err := c.call(ctx, method, params, &raw); err != nil {
		return err
	}
	return session.DecodeResult(method, withoutProtocolMembers(raw), result)
}

// call sends a request the way the protocol in use wants it: on a modern
// revision with the client's _meta, answering input_required results with
// the registered handlers and retrying (multi round-trip requests).
func (c *Client) call(ctx context.Context, method string, params, result any, opts ...session.CallOption) error {
	if !c.era.Stateless() {
		return c.send(ctx, method, params, result, opts...)
	}
	raw, err := encodeObject(params)
	if err != nil {
		return fmt.Errorf("client: encoding %s params: %w", method, err)
	}
	if raw, err = protocol.MergeMeta(raw, c.meta); err != nil {
		return err
	}
	if m, ok := ctx.Value(clientlink.CallMetaKey{}).(protocol.Meta); ok {
		// A proxy's call: its caller's capabilities and log level.
		if raw, err = protocol.MergeMeta(raw, m); err != nil {
			return err
		}
	}
	progress, opts := withTaskProgress(opts)
	reissued := 0
	for round := 0; ; round++ {
		var res json.RawMessage
		if err := c.send(ctx, method, raw, &res, opts...); err != nil {
			if reissued >= c.cfg.reissues || !lostInTransit(err) || ctx.Value(noReissueKey{}) != nil {
				return err
			}
			reissued++
			c.cfg.logger.Debug("MCP answer lost in transit; re-issuing the request", "method", method, "reissue", reissued, "error", err)
			if err := sleepCtx(ctx, reissueDelay(reissued)); err != nil {
				return err
			}
			round-- // the same round again
			continue
		}
		// The result is read once: into result, which tells its
		// resultType; the head alone is read when result does not (raw,
		// discarded, or undecodable), and for an input_required round.
		err := session.DecodeResult(method, res, result)
		rt, ok := resultTypeOf(result)
		var head struct {
			ResultType   string         `json:"resultType"`
			RequestState jsontext.Value `json:"requestState"`
		}
		if !ok || err != nil || rt == protocol.ResultTypeInputRequired || rt == protocol.ResultTypeTask {
			_ = protocol.Unmarshal(res, &head)
			rt = head.ResultType
		}
		if rt == protocol.ResultTypeTask {
			if ctx.Value(clientlink.RawTaskKey{}) != nil {
				return err // a proxy passes the task on to its caller
			}
			if started, ok := ctx.Value(startOnlyKey{}).(*protocol.TaskCreatedResult); ok {
				return startedTask(method, res, started, result)
			}
			return c.awaitTask(ctx, method, res, result, progress)
		}
		if rt != protocol.ResultTypeInputRequired {
			return err
		}
		resetResult(result)
		if round >= c.cfg.maxRounds {
			return fmt.Errorf("client: %s still needs input after %d rounds; giving up", method, round)
		}
		var ir protocol.InputRequiredResult
		if err := protocol.Unmarshal(res, &ir); err != nil {
			return fmt.Errorf("client: %s: bad input_required result: %w", method, err)
		}
		answers, err := c.answerInputs(ctx, method, ir.InputRequests)
		if err != nil {
			return err
		}
		if raw, err = retryParams(raw, answers, head.RequestState); err != nil {
			return err
		}
	}
}

// retryParams sets inputResponses and requestState on request params
// (removing a stale requestState when the server sent none). The other
// members, and state, the requestState exactly as the server wrote it, are
// copied byte for byte.
func retryParams(params json.RawMessage, answers protocol.InputResponses, state jsontext.Value) (json.RawMessage, error) {
	members, err := jsonobj.Parse(params)
	if err != nil {
		return nil, fmt.Errorf("client: request params: %w", err)
	}
	b := []byte{'{'}
	for _, m := range members {
		if m.Name != "requestState" && m.Name != "inputResponses" {
			b = jsonobj.AppendMember(b, m.Name, m.Value)
		}
	}
	if len(answers) > 0 {
		enc, err := protocol.Marshal(answers)
		if err != nil {
			return nil, err
		}
		b = jsonobj.AppendMember(b, "inputResponses", enc)
	}
	if len(state) > 0 && state.Kind() != 'n' {
		b = jsonobj.AppendMember(b, "requestState", state)
	}
	return append(b, '}'), nil
}

// encodeObject encodes request params, which must be a JSON object; nil
// encodes as {}.
func encodeObject(params any) (json.RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return json.RawMessage("{}"), nil
	case json.RawMessage:
		if len(p) == 0 {
			return json.RawMessage("{}"), nil
		}
		return p, nil
	case jsontext.Value:
		if len(p) == 0 {
			return json.RawMessage("{}"), nil
		}
		return json.RawMessage(p), nil
	}
	b, err := protocol.Marshal(params)
	if err != nil {
		return nil, err
	}
	if jsontext.Value(b).Kind() != '{' {
		return nil, fmt.Errorf("params must encode as a JSON object, not %s", b)
	}
	return b, nil
}

// Notify sends any notification.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	return c.sess.Notify(ctx, method, params)
}

// ListTools returns one page of the server's tools; pass the previous
// page's NextCursor to get the next, "" for the first. Tools walks them all.
//
// On 2026-07-28 over Streamable HTTP the client remembers the definitions
// for CallTool, and leaves out (logging a warning) every tool whose
// x-mcp-header annotations are invalid, as that transport requires.
// InputSchema and OutputSchema are kept exactly as the server sent them;
// nothing in them is resolved or fetched.
func (c *Client) ListTools(ctx context.Context, cursor string) (*ListToolsResult, error) {
	var res protocol.ListToolsResult
	if err := c.call(ctx, protocol.MethodToolsList, &protocol.ListParams{Cursor: cursor}, &res); err != nil {
		return nil, err
	}
	if c.paramHeaders {
		c.recordTools(&res, cursor == "")
	}
	return &res, nil
}

// Tools iterates over every tool, fetching pages as needed. An error ends
// the iteration after being yielded.
func (c *Client) Tools(ctx context.Context) iter.Seq2[*Tool, error] {
	return paginate(ctx, func(ctx context.Context, cursor string) ([]*protocol.Tool, string, error) {
		res, err := c.ListTools(ctx, cursor)
		if err != nil {
			return nil, "", err
		}
		return res.Tools, res.NextCursor, nil
	})
}

// paginate walks a paginated list.
func paginate[T any](ctx context.Context, page func(context.Context, string) ([]T, string, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		cursor := ""
		seen := map[string]bool{}
		for {
			items, next, err := page(ctx, cursor)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if next == "" || seen[next] {
				return
			}
			seen[next] = true
			cursor = next
		}
	}
}

// A CallOption configures one tool call. It is session.CallOption, so
// the session's options work here too: session.WithTimeout bounds each
// request the call sends. A call's deadline is otherwise its context's:
// bound a call with context.WithTimeout (WithCallTimeout bounds every call
// of a client).
type CallOption = session.CallOption

// WithProgress asks the server for progress notifications on the call and
// passes each to fn. fn runs on the connection's reading goroutine, in
// order, before the call returns: it must not block. When the call becomes
// a task (2026-07-28, tasks extension), the task's status messages keep
// coming to fn, from the calling goroutine, as the client polls the task:
// see docs/tasks.md. It is session.WithProgress.
func WithProgress(fn func(*Progress)) CallOption {
	return session.WithProgress(fn)
}

// WithMeta adds entries to the request's _meta, replacing what an earlier
// WithMeta gave.
func WithMeta(meta Meta) CallOption {
	return func(c *callopt.Config) { c.Meta = meta }
}

// withoutMeta drops WithMeta's entries from the options passed on to the
// session, once they are in the request's params.
func withoutMeta(c *callopt.Config) { c.Meta = nil }

// CallTool calls the tool name with args (a struct or map, encoded by
// encoding/json as the arguments object, so a struct's omitempty drops its
// zero values; or a json.RawMessage sent as it is; nil for none). A
// failure of the tool itself comes back as a result with IsError set; a
// protocol failure (unknown tool, invalid params) as an error matching the
// protocol sentinels with errors.Is. Cancelling ctx cancels the call on the
// server and returns context.Canceled. A call whose answer the transport
// lost fails with an error matching transport.ErrTransport; over
// Streamable HTTP, one whose broken answer stream the server says it can
// no longer resume (410 Gone: the replica running it died) also matches
// transport.ErrStreamLost, and the call may be sent again.
//
// On 2026-07-28 over Streamable HTTP, every argument the tool's input
// schema marks with x-mcp-header is also sent in an Mcp-Param-{Name} HTTP
// header (encoded with transport.EncodeHeaderValue; absent and null
// arguments get none). The tool definitions come from the last listing
// (ListTools or Tools); without one, CallTool lists the tools first. A tool
// the client rejected for invalid annotations is not called: the error
// matches ErrInvalidToolHeaders. When the server answers HeaderMismatch,
// the definitions may be stale: CallTool lists the tools again and retries
// once.
func (c *Client) CallTool(ctx context.Context, name string, args any, opts ...CallOption) (*ToolResult, error) {
	cfg := callopt.Apply(callopt.Config{}, opts)
	var rawArgs json.RawMessage
	if args != nil {
		// The arguments are the user's value, often the tool's own argument
		// struct: encoded by encoding/json's rules (omitempty drops a zero
		// number), as the struct's tags mean them.
		b, err := json.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("client: encoding arguments of %s: %w", name, err)
		}
		rawArgs = b
	}
	params, err := protocol.Marshal(&protocol.CallToolParams{Name: name, Arguments: rawArgs, Meta: cfg.Meta})
	if err != nil {
		return nil, err
	}
	var sopts []session.CallOption
	if len(opts) > 0 {
		sopts = append(opts[:len(opts):len(opts)], withoutMeta)
	}
	if cfg.OnTask != nil {
		ctx = context.WithValue(ctx, taskStartedKey{}, cfg.OnTask)
	}
	var res protocol.CallToolResult
	if err := c.callTool(ctx, name, jsontext.Value(params), rawArgs, &res, sopts); err != nil {
		return nil, err
	}
	return &res, nil
}

// callTool sends tools/call with params (which call the tool name with
// rawArgs) and decodes its result into result: the Mcp-Param headers of
// 2026-07-28 over Streamable HTTP, and one retry after HeaderMismatch,
// included.
func (c *Client) callTool(ctx context.Context, name string, params jsontext.Value, rawArgs json.RawMessage, result any, sopts []session.CallOption) error {
	for attempt := 0; ; attempt++ {
		cctx := ctx
		if c.paramHeaders {
			hs, err := c.toolHeaders(ctx, name)
			if err != nil {
				return err
			}
			h, err := paramHeaderValues(hs, rawArgs)
			if err != nil {
				return err
			}
			if len(h) > 0 {
				cctx = transport.WithHeader(ctx, h)
			}
		}
		err := c.call(cctx, protocol.MethodToolsCall, params, result, sopts...)
		if err != nil && c.paramHeaders && attempt == 0 && errors.Is(err, protocol.ErrHeaderMismatch) {
			c.cfg.logger.Debug("server refused the Mcp-Param headers; listing tools again", "tool", name, "error", err)
			c.invalidateTools()
			resetResult(result)
			continue
		}
		return err
	}
}

// answerInputs answers the server's input requests (elicitation, sampling,
// roots) of a call to method with the client's handlers.
func (c *Client) answerInputs(ctx context.Context, method string, reqs protocol.InputRequests) (protocol.InputResponses, error) {
	answers := protocol.InputResponses{}
	var needInput error
	for key, req := range reqs {
		ans, err := c.serveRequest(context.WithValue(ctx, clientlink.InputKey{}, key), c.version(""), req.Method, req.Params)
		if errors.Is(err, clientlink.ErrInputRequired) {
			// A proxy's caller must answer first: the other requests of
			// the round are still passed on, so that it gets them all.
			needInput = err
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("client: %s: answering the server's %s request %q: %w", method, req.Method, key, err)
		}
		b, err := protocol.Marshal(ans)
		if err != nil {
			return nil, err
		}
		answers[key] = b
	}
	if needInput != nil {
		return nil, needInput
	}
	return answers, nil
}

// link gives a proxy (package proxy) the internals of c (a *Client) it drives.
func link(x any) *clientlink.Client {
	c := x.(*Client)
	return &clientlink.Client{
		Attach: func(b clientlink.Backend) bool {
			return c.proxy.CompareAndSwap(nil, &b)
		},
		Forwarding:             c.cfg.forward,
		Era:                    c.era,
		Context:                c.sess.Context,
		Call:                   c.call,
		CallTool:               c.callTool,
		InvalidateTools:        c.invalidateTools,
		WithoutProtocolMembers: withoutProtocolMembers,
	}
}

// sentinel is the type of the package's sentinel errors. Unlike
// errors.New's, its values are laid out by the compiler, so package client
// has no init work: package proxy imports it, and a server that
// builds no proxy links none of it (fastmcp's TestMinimalServerLinks).
// Keep every package-level variable here a constant expression.
type sentinel struct{ msg string }

func (e *sentinel) Error() string { return e.msg }
