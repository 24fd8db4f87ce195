package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/proxy"
)

// proxyOptions are the flags of `fastmcp proxy`.
type proxyOptions struct {
	from         string
	to           toFlag
	allowedHosts []string
	authIssuer   string
	authAudience string
}

// proxyCommand is `fastmcp proxy`, proxy.New as a command.
func (a *app) proxyCommand() *cobra.Command {
	var o proxyOptions
	c := &cobra.Command{
		Use:   "proxy [--from stdio | --from ADDRESS] (--to URL | --to -- COMMAND [ARGS...])",
		Short: "Bridge a server to another transport: a remote server over stdio, a stdio server over HTTP",
		Long: `Serve the target server over another transport, forwarding everything both
ways: tools, resources, prompts, completions, list changes, progress, log
messages, and the server's elicitation, sampling and roots requests.

--from says where the proxy's clients reach it: stdio (the default; the
command a host such as Claude Desktop starts), or an address to listen on
for Streamable HTTP (and the legacy HTTP+SSE transport beside it), given as
host:port or http://host:port/path (path default /mcp). The served URL is
printed on stdout once it listens. --to names the server behind it: a URL
(with -H, --oauth, --protocol as for every command) or, after --, the
command of a stdio server. "fastmcp proxy URL" is "--from stdio --to URL".

Over stdio, standard input and output carry the protocol: the --oauth
authorization URL and every message go to stderr, and --no-browser only
prints the URL. Over HTTP, the server's protections apply: the Host header
must name the server (localhost names on loopback; --allowed-hosts or
FASTMCP_ALLOWED_HOSTS otherwise, required on every interface), and
--auth-issuer requires OAuth access tokens (JWTs checked with the issuer's
published keys) for --auth-audience, which defaults to the served URL.

The proxy runs until Ctrl-C (exit code 130), until its stdio host closes
its input (0), or until the server it started exits (3); --timeout bounds
only the connection to the server. -v logs what the client and the proxy
do on stderr.`,
		Example: `  # in a host's configuration: a remote server, logged in with OAuth
  fastmcp proxy https://example.com/mcp --oauth
  fastmcp proxy --from stdio --to https://example.com/mcp -H 'Authorization: Bearer T'

  # a stdio server over Streamable HTTP on http://127.0.0.1:8000/mcp
  fastmcp proxy --from 127.0.0.1:8000 --to -- npx -y @modelcontextprotocol/server-everything

  # the same, for tokens of an authorization server only
  fastmcp proxy --from http://127.0.0.1:8000/mcp --auth-issuer https://idp.example.com --to -- ./server`,
		Args: func(c *cobra.Command, args []string) error {
			if o.to.url != "" {
				return nil // --to=URL: checked in RunE
			}
			return argsBetween(1, 1)(c, args)
		},
		RunE: func(c *cobra.Command, args []string) error {
			if o.to.url != "" {
				if c.ArgsLenAtDash() >= 0 || len(args) > 0 {
					return usage(fmt.Errorf("--to=%s and another target: give one server", o.to.url))
				}
				return a.proxy(c.Context(), target{url: o.to.url}, &o)
			}
			t, _, err := splitTarget(c, args, 0)
			if err != nil {
				return err
			}
			return a.proxy(c.Context(), t, &o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.from, "from", "stdio", "serve the proxy over stdio, or over HTTP on this `address` (host:port or http://host:port/path)")
	f.Var(&o.to, "to", "the server behind the proxy: a `URL`, or -- and its command (the target may also be given without --to)")
	f.Lookup("to").NoOptDefVal = "true"
	f.StringSliceVar(&o.allowedHosts, "allowed-hosts", nil, "with --from ADDRESS, the Host `names` clients may use (comma-separated or repeated; * for any)")
	f.StringVar(&o.authIssuer, "auth-issuer", "", "with --from ADDRESS, require OAuth access tokens issued by this authorization server (`URL`)")
	f.StringVar(&o.authAudience, "auth-audience", "", "with --auth-issuer, the resource the tokens must be for (`URL`; default: the served URL)")
	// The target needs no --to in front of it: "proxy URL", "proxy -- CMD".
	// With --to, pflag takes no value from the next word (NoOptDefVal), so
	// that "--to -- CMD" and "--to URL" both leave the target in args.
	return c
}

// toFlag is --to: "--to=URL" holds the URL; "--to URL" and "--to -- CMD"
// leave the target among the arguments (see proxyCommand). Its type is
// "bool" for pflag's help, which then shows "--to URL" without a default.
type toFlag struct{ url string }

func (t *toFlag) String() string { return t.url }
func (t *toFlag) Type() string   { return "bool" }
func (t *toFlag) Set(v string) error {
	if v != "true" {
		t.url = v
	}
	return nil
}

// listenAddress parses --from: "stdio" (ok false), host:port, or
// http://host:port[/path]. It returns the address to listen on and the
// MCP endpoint's path.
func listenAddress(from string) (addr, path string, ok bool, err error) {
	if from == "stdio" {
		return "", "", false, nil
	}
	path = "/mcp"
	if strings.Contains(from, "://") {
		u, perr := url.Parse(from)
		if perr != nil || u.Scheme != "http" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return "", "", false, usage(fmt.Errorf("--from %q: want stdio, host:port or http://host:port/path", from))
		}
		from = u.Host
		if u.Path != "" && u.Path != "/" {
			path = u.Path
		}
	}
	if _, port, serr := net.SplitHostPort(from); serr != nil || port == "" {
		return "", "", false, usage(fmt.Errorf("--from %q: want stdio, host:port or http://host:port/path", from))
	}
	return from, path, true, nil
}

// proxy connects to t and serves it as --from says until ctx is done, the
// stdio host closes its input or the server the command started exits.
func (a *app) proxy(ctx context.Context, t target, o *proxyOptions) error {
	ln, addr, path, err := a.proxyListen(o)
	if err != nil {
		return err
	}
	listen := ln != nil
	if listen {
		defer ln.Close() // Run closes it too; this covers the failures before it
	}

	cctx := ctx
	if a.timeout > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, a.timeout)
		defer cancel()
	}
	// The backend's log messages go to the proxy's clients, each at the
	// level it asked for: the client asks for all of them.
	cl, exited, err := a.dial(cctx, t, client.WithRequestForwarding(),
		client.WithLogHandler(nil), client.WithLogLevel(protocol.LevelDebug))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && a.timeout > 0 {
			return &connectionError{&shortError{msg: a.timedOut(err), err: err}}
		}
		return err
	}
	defer cl.Close()

	var served string
	if listen {
		served = servedURL(addr, ln.Addr(), path)
	}
	srv := proxy.New(cl, a.proxyServerOptions(o, ln, path, served)...)

	// The server the command started exiting ends the proxy.
	sctx, stop := context.WithCancel(ctx)
	var watch sync.WaitGroup
	defer watch.Wait()
	defer stop() // before watch.Wait: ends the watcher
	backendGone := make(chan struct{})
	if exited != nil {
		watch.Go(func() {
			select {
			case <-exited:
				close(backendGone)
				stop()
			case <-sctx.Done():
			}
		})
	}

	if listen {
		// Started before the line is printed, so that the endpoint answers
		// the first request rather than 503 (not ready).
		if err := srv.Start(sctx); err != nil {
			return err
		}
		fmt.Fprintf(a.rawStdout, "Serving: %s\n", served)
		err = srv.Run(sctx)
		if errors.Is(err, fastmcp.ErrAllowedHostsRequired) {
			return errEveryInterface(o.from)
		}
	} else {
		err = srv.ServeStdio(sctx)
	}
	select {
	case <-backendGone:
		return &connectionError{fmt.Errorf("the server exited: %s", t)}
	default:
	}
	return proxyEnded(ctx, sctx, err, listen)
}

// proxyEnded is what the proxy returns when serving ended with err, nil
// when the clients went away: ctx is the command's context, sctx the one
// serving ran under.
func proxyEnded(ctx, sctx context.Context, err error, listen bool) error {
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return err
	}
	if listen && err == nil && sctx.Err() == nil {
		// Run ends on SIGINT or SIGTERM by itself, and may return before
		// the command's own signal context is canceled: the signal
		// reaches both at once, and ctx.Err() could still be nil here.
		return errInterrupted
	}
	return ctx.Err() // canceled by Ctrl-C: exit 130, as every command
}

// proxyListen checks o's options and, with --from ADDRESS, listens there:
// ln is nil for a proxy served over stdio.
func (a *app) proxyListen(o *proxyOptions) (ln net.Listener, addr, path string, err error) {
	addr, path, listen, err := listenAddress(o.from)
	if err != nil {
		return nil, "", "", err
	}
	if !listen && (len(o.allowedHosts) > 0 || o.authIssuer != "" || o.authAudience != "") {
		return nil, "", "", usage(errors.New("--allowed-hosts, --auth-issuer and --auth-audience apply to a proxy served over HTTP: add --from ADDRESS"))
	}
	if o.authAudience != "" && o.authIssuer == "" {
		return nil, "", "", usage(errors.New("--auth-audience needs --auth-issuer"))
	}
	if _, err := logLevel(a.logLevel); err != nil {
		return nil, "", "", err
	}
	if !listen {
		return nil, addr, path, nil
	}
	if ln, err = net.Listen("tcp", addr); err != nil {
		return nil, "", "", usage(fmt.Errorf("--from: %w", err))
	}
	// Checked before the server is started (the library would refuse too,
	// once serving): on every interface the Host check needs names.
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok && tcp.IP.IsUnspecified() && len(o.allowedHosts) == 0 && os.Getenv("FASTMCP_ALLOWED_HOSTS") == "" {
		ln.Close()
		return nil, "", "", errEveryInterface(o.from)
	}
	return ln, addr, path, nil
}

// proxyServerOptions returns the options of the proxy's server: its
// logger, and over HTTP (ln not nil) its listener, path, allowed hosts
// and token check.
func (a *app) proxyServerOptions(o *proxyOptions, ln net.Listener, path, served string) []fastmcp.Option {
	level := slog.LevelWarn
	if a.verbose {
		level = slog.LevelDebug
	}
	opts := []fastmcp.Option{fastmcp.Logger(slog.New(slog.NewTextHandler(a.rawStderr, &slog.HandlerOptions{Level: level})))}
	if ln == nil {
		return opts
	}
	opts = append(opts, fastmcp.HTTPPath(path), fastmcp.Listener(ln))
	if len(o.allowedHosts) > 0 {
		opts = append(opts, fastmcp.AllowedHosts(o.allowedHosts...))
	}
	if o.authIssuer != "" {
		audience := o.authAudience
		if audience == "" {
			audience = served
		}
		opts = append(opts, fastmcp.Auth(auth.Protect(auth.JWT(o.authIssuer, audience))))
	}
	return opts
}

// errEveryInterface is the usage error of --from on every interface
// without --allowed-hosts.
func errEveryInterface(from string) error {
	return usage(fmt.Errorf("--from %s: listening on every interface needs --allowed-hosts (the names clients use, or *)", from))
}

// servedURL is the URL of the proxy's MCP endpoint: the host as --from
// named it when it is localhost or an IP address (else the bound address,
// which the default Host check accepts), the port it is bound to, and path.
func servedURL(addr string, bound net.Addr, path string) string {
	host, _, _ := net.SplitHostPort(addr)
	_, port, _ := net.SplitHostPort(bound.String())
	if ip := net.ParseIP(host); ip == nil && host != "localhost" || ip != nil && ip.IsUnspecified() {
		return "http://" + bound.String() + path
	}
	return "http://" + net.JoinHostPort(host, port) + path
}
