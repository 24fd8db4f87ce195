package fastmcp

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/fastmcp-go/fastmcp/transport"
)

// Run serves the server on the transport its Settings choose — stdio by
// default, Streamable HTTP (with the legacy SSE endpoints beside it) when
// an address or a Listener is set — until ctx is done or the process gets
// SIGINT or SIGTERM. Over HTTP it serves the front door: the MCP
// endpoints, /healthz and the HandleHTTP routes, with the connection
// timeouts of the settings (see HTTPServer); it opens its port at once,
// and /healthz and the MCP endpoints answer 503 until the Lifespan has
// run. Listening on every interface (":8000") needs the AllowedHosts
// setting; without it Run fails with ErrAllowedHostsRequired. It runs the Lifespan first (an error stops start-up) and, at
// shutdown, lets calls in flight finish within ShutdownTimeout, closes the
// streams and runs the Lifespan cleanup. It returns nil after a clean
// shutdown, and an error naming the setting when a setting is invalid.
// A Server serves once: Run fails with ErrServerReused, and opens
// nothing, when Run, ServeStdio or ServeHTTP already served it or still
// does.
func (s *Server) Run(ctx context.Context) error {
	if err := s.claim(); err != nil {
		return err // before the settings: the Listener is the first Run's
	}
	set, err := s.settingsHiding(redisURLEnv) // enough to choose the transport
	if err == nil && set.Transport == "http" {
		set, err = s.Settings()
	} else if err == nil {
		s.servingStdio(set)
	}
	if err != nil {
		if s.cfg.listener != nil {
			s.cfg.listener.Close()
		}
		return err
	}
	s.level.Set(set.LogLevel)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if set.Transport == "http" {
		return s.serveHTTP(ctx, set, s.cfg.listener)
	}
	return s.serveStdio(ctx, set)
}

// serveStdio serves stdin/stdout until stdin closes or ctx is done.
func (s *Server) serveStdio(ctx context.Context, set Settings) error {
	if s.cfg.auth != nil {
		// MCP authorization is for HTTP; a stdio server takes its
		// credentials from the environment.
		s.logger.Info("the Auth option is ignored over stdio: authorization applies to HTTP only")
	}
	if err := s.Start(ctx); err != nil {
		return err
	}
	err := s.serve(ctx, transport.Stdio(nil), set.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), set.ShutdownTimeout)
	defer cancel()
	if serr := s.Shutdown(sctx); err == nil {
		err = serr
	}
	return err
}
