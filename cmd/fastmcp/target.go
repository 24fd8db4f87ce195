package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/oauthclient"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// target is the server a command talks to: a URL, or a command to start.
type target struct {
	url  string
	argv []string
}

// String is the target as the user gave it, for messages.
func (t target) String() string {
	if t.url != "" {
		return t.url
	}
	return strings.Join(t.argv, " ")
}

// splitTarget takes the target out of a command's arguments: the words
// after -- when there are some (a stdio server), else the positional
// argument at pos, which must be an http(s) URL. rest is every other
// argument, in order.
func splitTarget(c *cobra.Command, args []string, pos int) (target, []string, error) {
	if d := c.ArgsLenAtDash(); d >= 0 {
		return target{argv: args[d:]}, args[:d], nil
	}
	if len(args) <= pos {
		return target{}, nil, usage(fmt.Errorf("no server given: put a URL, or the server's command after --; usage: %s", c.UseLine()))
	}
	raw := args[pos]
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return target{}, nil, usage(fmt.Errorf("%q is not an http(s) URL; to start a stdio server, put its command after --, e.g. fastmcp %s -- ./server", raw, c.Name()))
	}
	rest := append(append([]string{}, args[:pos]...), args[pos+1:]...)
	return target{url: raw}, rest, nil
}

// connect connects to t with the global flags and extra client options.
func (a *app) connect(ctx context.Context, t target, opts ...client.Option) (*client.Client, error) {
	c, _, err := a.dial(ctx, t, opts...)
	return c, err
}

// dial is connect, also returning, for a server it started, a channel
// closed once that server's process has exited (nil for a URL).
func (a *app) dial(ctx context.Context, t target, opts ...client.Option) (*client.Client, <-chan struct{}, error) {
	level := slog.LevelWarn + 4 // the client's own diagnostics: silent unless -v
	if a.verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(a.rawStderr, &slog.HandlerOptions{Level: level}))
	lvl, err := logLevel(a.logLevel)
	if err != nil {
		return nil, nil, err
	}
	base := []client.Option{
		client.WithInfo("fastmcp-cli", buildVersion()),
		client.WithLogger(logger),
		client.WithLogLevel(lvl),
		client.WithLogHandler(a.printLog),
	}
	if a.protocol != "" {
		if !knownVersion(a.protocol) {
			return nil, nil, usage(fmt.Errorf("--protocol %s: unknown revision; known: %s", a.protocol, strings.Join(protocol.SupportedVersions(), ", ")))
		}
		base = append(base, client.WithProtocolVersion(a.protocol))
	}
	opts = append(base, opts...)
	var c *client.Client
	var exited <-chan struct{}
	if t.url != "" {
		h, herr := parseHeaders(a.headers)
		if herr != nil {
			return nil, nil, herr
		}
		if len(h) > 0 {
			opts = append(opts, client.WithHTTPHeader(h))
		}
		if a.oauth {
			cfg, oerr := a.oauthConfig(t.url, logger)
			if oerr != nil {
				return nil, nil, oerr
			}
			opts = append(opts, client.OAuth(cfg))
		}
		c, err = client.ConnectHTTP(ctx, t.url, opts...)
	} else {
		if len(a.headers) > 0 || a.oauth {
			return nil, nil, usage(errors.New("-H and --oauth apply to a server at a URL, not to one started with --"))
		}
		cmd := &client.Command{Path: t.argv[0], Args: t.argv[1:], Stderr: a.serverStderr(), GracePeriod: stdioGrace}
		var p *transport.Process
		if p, err = cmd.Start(ctx); err == nil {
			exited = p.Exited()
			if c, err = client.Connect(ctx, p, opts...); err != nil {
				p.Close()
			}
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, &connectionError{fmt.Errorf("connecting to %s: %w", t, a.shortest(err))}
	}
	return c, exited, nil
}

// stdioGrace is how long the command waits, once done, for a server it
// started to exit after its stdin is closed, before SIGTERM (and as long
// again before SIGKILL). Shorter than the library's 2 s default: a
// one-shot command should not linger, and some servers (Node's reference
// server among them) take seconds to notice the end of their input.
const stdioGrace = time.Second

// parseHeaders parses the -H values.
func parseHeaders(hs []string) (http.Header, error) {
	h := http.Header{}
	for _, s := range hs {
		name, value, ok := strings.Cut(s, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, usage(fmt.Errorf("-H %q: want 'Name: value'", s))
		}
		h.Add(name, strings.TrimSpace(value))
	}
	return h, nil
}

// knownVersion reports whether v is a revision the client speaks.
func knownVersion(v string) bool {
	for _, s := range protocol.SupportedVersions() {
		if s == v {
			return true
		}
	}
	return false
}

// withClient runs fn with a client connected to the target in args (see
// splitTarget), closing it afterwards; rest is passed on to fn.
func (a *app) withClient(c *cobra.Command, args []string, pos int, fn func(ctx context.Context, cl *client.Client, rest []string) error, opts ...client.Option) error {
	t, rest, err := splitTarget(c, args, pos)
	if err != nil {
		return err
	}
	ctx := c.Context()
	if a.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.timeout)
		defer cancel()
	}
	cl, err := a.connect(ctx, t, opts...)
	if err == nil {
		defer cl.Close()
		err = fn(ctx, cl, rest)
	}
	if err != nil && errors.Is(err, context.DeadlineExceeded) && a.timeout > 0 {
		return &connectionError{&shortError{msg: a.timedOut(err), err: err}}
	}
	return err
}

// connectWithin connects to the target t, --timeout bounding the
// connection only: for a command that then runs until interrupted.
func (a *app) connectWithin(ctx context.Context, t target, opts ...client.Option) (*client.Client, error) {
	cctx := ctx
	if a.timeout > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, a.timeout)
		defer cancel()
	}
	cl, err := a.connect(cctx, t, opts...)
	if err != nil && errors.Is(err, context.DeadlineExceeded) && a.timeout > 0 {
		return nil, &connectionError{&shortError{msg: a.timedOut(err), err: err}}
	}
	return cl, err
}

// shortest drops the layers of wrapping around a connection failure,
// which name each package the failure went through, and says what to do
// where the command knows: "dial tcp 127.0.0.1:1: connect: connection
// refused" is what the user needs to read. The returned error still wraps
// the original.
func (a *app) shortest(err error) error {
	var he *transport.HTTPError
	var oe *oauthclient.Error
	var op *net.OpError
	var se *client.InsufficientScopeError
	switch {
	case errors.Is(err, oauthclient.ErrNoBrowser) && a.noInput:
		return &shortError{msg: "the server needs a login, which --no-input forbids: run the command once without --no-input", err: err}
	case errors.As(err, &oe):
		return &shortError{msg: oe.Error(), err: err}
	case errors.As(err, &se):
		return &shortError{msg: scopeHint(se), err: err}
	case errors.As(err, &he) && he.StatusCode == http.StatusUnauthorized:
		return &shortError{msg: "the server requires authorization (HTTP 401): add --oauth to log in, or -H 'Authorization: Bearer TOKEN'", err: err}
	case errors.As(err, &he):
		return &shortError{msg: he.Error(), err: err}
	case errors.As(err, &op):
		return &shortError{msg: op.Error(), err: err}
	}
	return err
}

// scopeHint says which scopes a 403 insufficient_scope answer asks for
// and how to get them.
func scopeHint(se *client.InsufficientScopeError) string {
	msg := "the server refused the token for lack of scope (HTTP 403 insufficient_scope)"
	if len(se.Scopes) > 0 {
		msg += "; it needs the scopes: " + strings.Join(se.Scopes, " ") + "; log in again with --oauth (it asks for them) or pass a token granted them"
	}
	if se.Description != "" {
		msg += " (" + se.Description + ")"
	}
	return msg
}

type shortError struct {
	msg string
	err error
}

func (e *shortError) Error() string { return e.msg }
func (e *shortError) Unwrap() error { return e.err }

// timedOut says which step --timeout ended: "calling wait: no answer
// within --timeout 300ms".
func (a *app) timedOut(err error) string {
	msg := fmt.Sprintf("no answer within --timeout %s", a.timeout)
	if step, _, ok := strings.Cut(err.Error(), ": "); ok && !strings.HasPrefix(step, "context") {
		return step + ": " + msg
	}
	return msg
}
