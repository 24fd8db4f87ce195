package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// httpSession is one MCP session over Streamable HTTP, on one keep-alive
// connection. Requests are written by hand and answers read with
// http.ReadResponse, so that the client costs little and the same for
// every server (net/http's client adds two goroutine hand-offs a call).
type httpSession struct {
	addr, path, id, version string
	conn                    net.Conn
	r                       *bufio.Reader
	req, body               bytes.Buffer
}

// post sends msg and returns the response body (valid until the next
// post), or nil for 202 Accepted.
func (s *httpSession) post(msg []byte) ([]byte, error) {
	if s.conn == nil {
		c, err := net.DialTimeout("tcp", s.addr, 5*time.Second)
		if err != nil {
			return nil, err
		}
		s.conn, s.r = c, bufio.NewReaderSize(c, 64<<10)
	}
	s.conn.SetDeadline(time.Now().Add(10 * time.Second))
	b := &s.req
	b.Reset()
	fmt.Fprintf(b, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n", s.path, s.addr, len(msg))
	if s.id != "" {
		fmt.Fprintf(b, "Mcp-Session-Id: %s\r\n", s.id)
	}
	if s.version != "" {
		fmt.Fprintf(b, "Mcp-Protocol-Version: %s\r\n", s.version)
	}
	b.WriteString("\r\n")
	b.Write(msg)
	if _, err := s.conn.Write(b.Bytes()); err != nil {
		return nil, err
	}
	resp, err := http.ReadResponse(s.r, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	s.body.Reset()
	_, err = s.body.ReadFrom(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	if resp.Close {
		s.close()
	}
	switch resp.StatusCode {
	case http.StatusOK:
		if s.id == "" {
			s.id = resp.Header.Get("Mcp-Session-Id")
		}
		return s.body.Bytes(), nil
	case http.StatusAccepted, http.StatusNoContent:
		return nil, nil
	}
	if resp.StatusCode == http.StatusServiceUnavailable {
		return nil, fmt.Errorf("%w: %.200s", errUnavailable, s.body.Bytes())
	}
	return nil, fmt.Errorf("HTTP %s: %.200s", resp.Status, s.body.Bytes())
}

// errUnavailable is an answer 503 Service Unavailable.
var errUnavailable = errors.New("HTTP 503 Service Unavailable")

// close closes the session's connection.
func (s *httpSession) close() {
	if s.conn != nil {
		s.conn.Close()
		s.conn = nil
	}
}

// initialize opens the session: initialize, then the initialized
// notification with the session id and revision the server gave.
func (s *httpSession) initialize() error {
	resp, err := s.post(initRequest(1))
	// A server may open its port before it is ready and answer 503 until
	// then (fastmcp's Run over HTTP does, with Retry-After): try again.
	for deadline := time.Now().Add(5 * time.Second); errors.Is(err, errUnavailable) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		resp, err = s.post(initRequest(1))
	}
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if s.version, err = checkInit(resp, 1); err != nil {
		return err
	}
	if _, err := s.post(initializedNote); err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	return nil
}

// httpLoad runs sessions sessions against path on addr, each one call at a time,
// until stop is set, counting answered calls in done.
func httpLoad(addr, path string, sessions int, stop *atomic.Bool, done *atomic.Int64) error {
	var wg sync.WaitGroup
	errs := make([]error, sessions)
	for i := range sessions {
		wg.Go(func() {
			errs[i] = runSession(addr, path, i, stop, done)
			if errs[i] != nil {
				stop.Store(true) // the others end too
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// runSession is one session of httpLoad. Session i uses ids from
// firstCallID + i<<24, so that every answer is distinct.
func runSession(addr, path string, i int, stop *atomic.Bool, done *atomic.Int64) error {
	s := &httpSession{addr: addr, path: path}
	defer s.close()
	if err := s.initialize(); err != nil {
		return err
	}
	var buf []byte
	for n := 0; !stop.Load(); n++ {
		id := firstCallID + i<<24 + n
		buf = appendCall(buf[:0], id)
		resp, err := s.post(buf)
		if err != nil {
			return fmt.Errorf("call %d: %w", id, err)
		}
		if err := check(resp, id, n < 8 || n%fullEvery == 0); err != nil {
			return err
		}
		done.Add(1)
	}
	return nil
}

// freeAddr returns a loopback address that was free a moment ago.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// waitListening waits until addr accepts connections or p exits.
func waitListening(p *proc, addr string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-p.exited:
			return p.failed(errors.New("exited before listening"))
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return p.failed(fmt.Errorf("not listening on %s after 10s", addr))
		}
	}
}
