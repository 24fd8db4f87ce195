package transport

import (
	"context"
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// startListening opens the GET stream for server-initiated messages,
// once. It returns when the GET request has been written (or has failed),
// so that the server sees the stream opened before the client's next
// request.
func (c *StreamableClient) startListening() {
	c.mu.Lock()
	already := c.listening
	c.listening = true
	c.mu.Unlock()
	if already {
		return
	}
	ctx, release, err := c.bind(context.Background())
	if err != nil {
		return
	}
	sent := make(chan struct{})
	var once sync.Once
	signal := func() { once.Do(func() { close(sent) }) }
	first := httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { signal() }})
	if !c.spawn(func() { c.listen(ctx, first, signal, release) }) {
		release()
		return
	}
	t := time.NewTimer(5 * time.Second)
	defer t.Stop()
	select {
	case <-sent:
	case <-t.C:
	case <-c.done:
	}
}

// listen keeps the GET stream open, reconnecting (with Last-Event-ID)
// whenever it ends, until Close, a 405 or 404 (the server has no GET
// stream, or the session expired), or MaxRetries consecutive failures.
func (c *StreamableClient) listen(ctx, first context.Context, sent, release func()) {
	defer release()
	defer sent()
	lastID, retry, failures := "", c.opts.ReconnectDelay, 0
	for {
		resp, withSession, err := c.get(first, lastID)
		sent()
		first = ctx
		if ctx.Err() != nil {
			if err == nil {
				resp.Body.Close()
			}
			return
		}
		switch {
		case err != nil:
			failures++
		case resp.StatusCode == http.StatusMethodNotAllowed:
			resp.Body.Close()
			return // the server offers no GET stream
		case resp.StatusCode == http.StatusNotFound:
			resp.Body.Close()
			if withSession {
				c.expire()
			}
			return // without a session: no GET stream here either
		case resp.StatusCode/100 == 2 && mediaType(resp.Header.Get("Content-Type")) == mediaSSE:
			failures = 0
			_, _ = c.readEvents(resp.Body, protocol.ID{}, &lastID, &retry)
			resp.Body.Close()
		default:
			resp.Body.Close()
			failures++
		}
		if failures > c.opts.MaxRetries {
			c.logger.Debug("giving up the MCP GET stream", "failures", failures)
			return
		}
		t := time.NewTimer(retry)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
}
