package main

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// loadFunc keeps calls going until stop is set, counting answered calls
// in done; it returns once its calls are answered.
type loadFunc func(stop *atomic.Bool, done *atomic.Int64) error

// measure runs load, lets it warm up for warm, and returns the calls
// answered per second over the next dur.
func measure(warm, dur time.Duration, load loadFunc) (float64, error) {
	var stop atomic.Bool
	var done atomic.Int64
	errc := make(chan error, 1)
	go func() { errc <- load(&stop, &done) }() // ends when stop is set or its server fails
	var c0 int64
	var t0 time.Time
	for i, d := range []time.Duration{warm, dur} {
		select {
		case err := <-errc:
			stop.Store(true)
			if err == nil {
				err = errors.New("the load ended early")
			}
			return 0, err
		case <-time.After(d):
		}
		if i == 0 {
			c0, t0 = done.Load(), time.Now()
		}
	}
	c1, t1 := done.Load(), time.Now()
	stop.Store(true)
	select {
	case err := <-errc:
		if err != nil {
			return 0, err
		}
	case <-time.After(10 * time.Second):
		return 0, fmt.Errorf("calls still unanswered 10s after the load stopped")
	}
	if c1 == c0 {
		return 0, errors.New("no call answered")
	}
	return float64(c1-c0) / t1.Sub(t0).Seconds(), nil
}

// runStdio measures one stdio row of srv (window calls in flight) and
// returns calls/s and the server's peak RSS.
func runStdio(srv *server, window int, cfg *config) (float64, int64, error) {
	p, err := start(srv.name, srv.bin, true)
	if err != nil {
		return 0, 0, err
	}
	c := newStdioClient(p)
	if err := c.initialize(); err != nil {
		p.kill()
		return 0, 0, err
	}
	rate, err := measure(cfg.warm, cfg.dur, func(stop *atomic.Bool, done *atomic.Int64) error {
		return c.load(window, stop, done)
	})
	rss := p.stop() // also unblocks a load stuck on a hung server
	if err != nil {
		return 0, 0, fmt.Errorf("%s, stdio %d in flight: %w", srv.name, window, err)
	}
	return rate, rss, nil
}

// runHTTP measures the HTTP row of srv and returns calls/s and the
// server's peak RSS.
func runHTTP(srv *server, cfg *config) (float64, int64, error) {
	addr, err := freeAddr()
	if err != nil {
		return 0, 0, err
	}
	p, err := start(srv.name, srv.bin, false, "-http", addr)
	if err != nil {
		return 0, 0, err
	}
	if err := waitListening(p, addr); err != nil {
		p.kill()
		return 0, 0, err
	}
	rate, err := measure(cfg.warm, cfg.dur, func(stop *atomic.Bool, done *atomic.Int64) error {
		return httpLoad(addr, srv.path, cfg.sessions, stop, done)
	})
	rss := p.kill()
	if err != nil {
		return 0, 0, p.failed(fmt.Errorf("HTTP %d sessions: %w", cfg.sessions, err))
	}
	return rate, rss, nil
}
