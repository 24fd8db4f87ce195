package transport

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// lost fails the call id, whose answer cannot come, with an error
// matching ErrTransport (never a made-up JSON-RPC error, which would look
// as if the server had sent it).
func (c *StreamableClient) lost(id protocol.ID, why error) {
	c.logger.Warn("MCP HTTP answer lost", "id", id.String(), "reason", why)
	c.failCall(id, fmt.Errorf("transport: %w", why))
}

// reconnect waits the retry delay and GETs the stream after lastID, trying
// up to MaxRetries times. It returns the new stream's body, or nil; and
// ErrStreamLost when the server answered that the stream is gone (410).
func (c *StreamableClient) reconnect(ctx context.Context, lastID string, retry *time.Duration) (io.ReadCloser, error) {
	for range c.opts.MaxRetries {
		t := time.NewTimer(*retry)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, nil
		}
		resp, withSession, err := c.get(ctx, lastID)
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil
			}
			c.logger.Debug("reconnecting MCP stream failed", "error", err)
			continue
		}
		switch {
		case resp.StatusCode == http.StatusNotFound && withSession:
			resp.Body.Close()
			c.expire()
			return nil, nil
		case resp.StatusCode == http.StatusMethodNotAllowed:
			resp.Body.Close()
			return nil, nil
		case resp.StatusCode == http.StatusGone:
			resp.Body.Close()
			return nil, ErrStreamLost
		case resp.StatusCode/100 == 2 && mediaType(resp.Header.Get("Content-Type")) == mediaSSE:
			return resp.Body, nil
		}
		resp.Body.Close()
		c.logger.Debug("reconnecting MCP stream failed", "status", resp.StatusCode)
	}
	return nil, nil
}

func (c *StreamableClient) get(ctx context.Context, lastID string) (*http.Response, bool, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return nil, false, err
	}
	hdr := hr.Header
	addHeaders(hdr, c.opts.Header)
	hdr.Set("Accept", mediaSSE)
	c.mu.Lock()
	sid, version := c.sessionID, c.version
	c.mu.Unlock()
	if sid != "" {
		hdr.Set(HeaderSessionID, sid)
	}
	if version != "" {
		hdr.Set(HeaderProtocolVersion, version)
	}
	if lastID != "" {
		hdr.Set(HeaderLastEventID, lastID)
	}
	resp, err := c.opts.HTTPClient.Do(hr)
	return resp, sid != "", err
}

// readEvents feeds the messages of an SSE stream to Read, tracking the
// last event id and retry delay. It reports whether the response to id
// (when valid) arrived, which ends the stream.
func (c *StreamableClient) readEvents(body io.Reader, id protocol.ID, lastID *string, retry *time.Duration) (bool, error) {
	r := newSSEReader(body, c.opts.MaxMessageSize)
	for {
		ev, err := r.next()
		if err != nil {
			return false, err
		}
		if ev.ID != "" {
			*lastID = ev.ID
		}
		if ev.Retry > 0 {
			*retry = ev.Retry
		}
		if ev.TooLarge != nil {
			if c.tooLarge(ev.TooLarge, id) {
				return true, nil
			}
			continue
		}
		msg, ok := ev.message(c.logger)
		if !ok {
			continue
		}
		c.deliver(msg, id)
		if r, ok := msg.(*protocol.Response); ok && id.IsValid() && r.ID == id {
			return true, nil
		}
	}
}

// tooLarge deals with a message over the limit that the answer stream of
// request id (the zero ID for the GET stream) carried, which was skipped.
// A response fails the call it answers (on a request's stream, one whose id
// could not be read is taken for that request's); a request is handed to
// Read, to be answered with the error. It reports whether the stream's own
// request was failed.
func (c *StreamableClient) tooLarge(de *protocol.DecodeError, id protocol.ID) bool {
	switch {
	case de.NotRequest && de.ID.IsValid():
		c.failCall(de.ID, de.Cause)
		return de.ID == id
	case de.NotRequest && id.IsValid():
		c.failCall(id, de.Cause)
		return true
	case !de.NotRequest && de.ID.IsValid():
		c.report(de)
	default:
		c.logger.Warn("ignoring a message from the MCP server over the size limit", "error", de.Cause)
	}
	return false
}
