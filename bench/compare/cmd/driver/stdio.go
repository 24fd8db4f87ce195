package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"sync/atomic"
)

// stdioClient speaks newline-delimited JSON-RPC with a server process.
type stdioClient struct {
	p    *proc
	w    *bufio.Writer
	line []byte // the last line read, when it did not fit the reader
}

func newStdioClient(p *proc) *stdioClient {
	return &stdioClient{p: p, w: bufio.NewWriterSize(p.stdin, 64<<10)}
}

// send writes msg and flushes it.
func (c *stdioClient) send(msg []byte) error {
	c.w.Write(msg)
	return c.flush()
}

func (c *stdioClient) flush() error {
	if err := c.w.Flush(); err != nil {
		return c.p.failed(fmt.Errorf("writing: %w", err))
	}
	return nil
}

// read returns the next response, skipping the server's notifications and
// requests. It is valid until the next read.
func (c *stdioClient) read() ([]byte, error) {
	for {
		line, err := c.p.stdout.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			c.line = append(c.line[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = c.p.stdout.ReadSlice('\n')
				c.line = append(c.line, line...)
			}
			line = c.line
		}
		if err != nil {
			return nil, c.p.failed(fmt.Errorf("reading: %w", err))
		}
		if !bytes.Contains(line, []byte(`"method":`)) {
			return line, nil
		}
	}
}

// roundTrip sends msg and returns the next response.
func (c *stdioClient) roundTrip(msg []byte) ([]byte, error) {
	if err := c.send(msg); err != nil {
		return nil, err
	}
	return c.read()
}

// initialize runs the MCP handshake.
func (c *stdioClient) initialize() error {
	resp, err := c.roundTrip(initRequest(1))
	if err != nil {
		return err
	}
	if _, err := checkInit(resp, 1); err != nil {
		return c.p.failed(err)
	}
	return c.send(initializedNote)
}

// load keeps window calls in flight until stop is set, then collects the
// calls still out. It counts answered calls in done. Requests are
// flushed whenever no answer is waiting to be read, so a burst of answers
// is followed by one write of the requests that replace them.
func (c *stdioClient) load(window int, stop *atomic.Bool, done *atomic.Int64) error {
	id, out := firstCallID, 0
	var buf []byte
	for ; out < window; out++ {
		buf = appendCall(buf[:0], id+out)
		c.w.Write(buf)
	}
	if err := c.flush(); err != nil {
		return err
	}
	next := id + window
	answered := 0
	for out > 0 {
		resp, err := c.read()
		if err != nil {
			return err
		}
		got, _ := idOf(resp)
		if got < firstCallID || got >= next {
			got = -1 // checkFull says what is wrong
		}
		if err := check(resp, got, answered < 2*window || answered%fullEvery == 0); err != nil {
			return c.p.failed(err)
		}
		answered++
		out--
		done.Add(1)
		if !stop.Load() {
			buf = appendCall(buf[:0], next)
			c.w.Write(buf)
			next++
			out++
		}
		if c.p.stdout.Buffered() == 0 {
			if err := c.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// preflight checks that a stdio server answers add correctly and refuses
// b < 0.
func preflight(name, bin string) error {
	p, err := start(name, bin, true)
	if err != nil {
		return err
	}
	defer p.stop()
	c := newStdioClient(p)
	if err := c.initialize(); err != nil {
		return err
	}
	resp, err := c.roundTrip(appendCall(nil, 2))
	if err != nil {
		return err
	}
	if err := checkFull(resp, 2); err != nil {
		return p.failed(err)
	}
	resp, err = c.roundTrip([]byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":-1}}}` + "\n"))
	if err != nil {
		return err
	}
	if err := checkRejected(resp, 3); err != nil {
		return p.failed(err)
	}
	return nil
}
