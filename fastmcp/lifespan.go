package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
)

// A LifespanFunc starts what the server needs while it serves (a database
// pool, a cache, a client of another service) and returns it as the server's
// state, with a function that releases it (nil when there is nothing to
// release). It runs once, before the server accepts its first request; the
// cleanup runs once, after the last request finished.
type LifespanFunc[T any] func(ctx context.Context) (state T, cleanup func(context.Context) error, err error)

// State returns the server's state: the value its Lifespan returned. It
// never needs a nil check: without a Lifespan, or before it ran, it returns
// the zero value of T. It panics when the Lifespan returns another type,
// naming both (a programmer error, caught by any test that runs the handler).
func State[T any](ctx *Context) T {
	var zero T
	st := ctx.srv.life.state()
	if st == nil {
		if t := ctx.srv.cfg.lifespanType; t != nil && t != reflect.TypeFor[T]() {
			panic(fmt.Sprintf("fastmcp.State[%s]: the server's Lifespan returns %s; call fastmcp.State[%s]", reflect.TypeFor[T](), t, t))
		}
		return zero
	}
	v, ok := st.(T)
	if !ok {
		panic(fmt.Sprintf("fastmcp.State[%s]: the server's Lifespan returns %T; call fastmcp.State[%T]", reflect.TypeFor[T](), st, st))
	}
	return v
}

// lifespan tracks the server's start and shutdown.
type lifespan struct {
	mu       sync.Mutex
	started  bool
	draining bool // a serving method is shutting down: new requests get 503
	stopped  bool
	claimed  bool // Run, ServeStdio or ServeHTTP serves the server (see claim)
	value    any
	cleanup  func(context.Context) error
	ready    chan struct{} // closed once started
	starting chan struct{} // non-nil while a Start runs the lifespan; closed when it ends
}

func (l *lifespan) state() any {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.value
}

// ErrServerReused is the error of serving a Server a second time. A
// Server has one life: Run, ServeStdio and ServeHTTP (the Server mounted
// as an http.Handler) each serve it for the whole of that life, so once one
// of them has begun, another fails with ErrServerReused, whether the first
// still serves (the second would open a second listener on the same
// state) or has returned (the Server is shut down). ServeHTTP, mounted on
// any number of muxes, counts as one. Start and Serve return it after
// Shutdown. Build a new Server (with New) to serve again.
var ErrServerReused = errors.New("fastmcp: a Server serves once; create a new one")

// claim marks s as served by Run, ServeStdio or ServeHTTP. It returns
// ErrServerReused when one of them already did or s is shut down.
func (s *Server) claim() error {
	l := &s.life
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.claimed || l.stopped {
		return ErrServerReused
	}
	l.claimed = true
	return nil
}

// Start runs the server's Lifespan, once; later calls return nil at once.
// The serving methods call it; call it yourself to start the state before
// serving (in tests, say). A lifespan error is returned, wrapped, and the
// server stays unstarted. With a shared bus (Stores.Bus) Start first subscribes to
// the bus, and fails when it cannot. After Shutdown it returns
// ErrServerReused.
func (s *Server) Start(ctx context.Context) error {
	l := &s.life
	l.mu.Lock()
	switch {
	case l.stopped:
		l.mu.Unlock()
		return ErrServerReused
	case l.started:
		l.mu.Unlock()
		return nil
	case l.starting != nil:
		// Another Start is running the lifespan: wait for its outcome.
		done := l.starting
		l.mu.Unlock()
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
		return s.Start(ctx)
	}
	done := make(chan struct{})
	l.starting = done
	l.mu.Unlock()

	openedStores, err := s.startStores(ctx)

	var (
		v       any
		cleanup func(context.Context) error
	)
	if err == nil && s.busRun != nil {
		err = s.busRun.start(ctx, s)
	}
	if err == nil {
		if fn := s.cfg.lifespan; fn != nil {
			if v, cleanup, err = fn(ctx); err != nil {
				if s.busRun != nil {
					s.busRun.stop(s)
				}
				err = fmt.Errorf("lifespan: %w", err)
			}
		}
	}
	if err != nil && openedStores {
		s.abandonStores()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.starting = nil
	close(done)
	if err != nil {
		return fmt.Errorf("fastmcp: starting server %q: %w", s.ll.Info().Name, err)
	}
	l.value, l.cleanup = v, cleanup
	l.started = true
	close(l.ready)
	return nil
}

// Ready reports whether the server serves: it has started (its stores
// are open, its bus subscribed, its Lifespan ran) and is not shutting
// down. While it is false, /healthz answers 503 and the MCP endpoints 503
// with Retry-After, which clients of this package wait for while
// connecting (see DefaultStartingWait).
func (s *Server) Ready() bool {
	s.life.mu.Lock()
	defer s.life.mu.Unlock()
	return s.life.started && !s.life.draining && !s.life.stopped
}

// drain marks the server as shutting down (Ready is false from now on),
// before the serving method drains its endpoints.
func (s *Server) drain() {
	s.life.mu.Lock()
	s.life.draining = true
	s.life.mu.Unlock()
}

// readiness is what /healthz says while the server is not Ready.
func (s *Server) readiness() string {
	s.life.mu.Lock()
	defer s.life.mu.Unlock()
	if s.life.started {
		return "stopping"
	}
	return "starting"
}

// Shutdown ends the server's life: the MCP endpoints mounted with
// ServeHTTP stop taking requests and let those in flight finish until ctx
// is done, open subscriptions/listen streams end, and the Lifespan cleanup
// runs (its error is logged and returned). The
// serving methods call it when they return; call it yourself after Start.
// Later calls return nil.
func (s *Server) Shutdown(ctx context.Context) error {
	l := &s.life
	l.mu.Lock()
	if l.stopped {
		l.mu.Unlock()
		return nil
	}
	l.stopped = true
	cleanup := l.cleanup
	l.mu.Unlock()
	// The endpoints mounted with ServeHTTP drain first: their listen
	// streams end with their result and calls in flight finish within ctx.
	if err := s.shutdownMounted(ctx); err != nil {
		s.logger.Warn("graceful HTTP shutdown cut short", "error", err)
	}
	s.stopListeners()
	if tasks := s.taskRuntime(); tasks != nil {
		if err := tasks.shutdown(ctx, s); err != nil {
			s.logger.Warn("tasks did not end in time", "error", err)
		}
	}
	if s.busRun != nil {
		s.busRun.stop(s)
	}
	var err error
	if cleanup != nil {
		if cerr := cleanup(ctx); cerr != nil {
			s.logger.Error("lifespan cleanup failed", "error", cerr)
			err = fmt.Errorf("fastmcp: lifespan cleanup: %w", cerr)
		}
	}
	if cerr := s.closeStores(); cerr != nil {
		s.logger.Error("closing the shared stores failed", "error", cerr)
		err = errors.Join(err, fmt.Errorf("fastmcp: closing the shared stores: %w", cerr))
	}
	return err
}
