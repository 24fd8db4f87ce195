package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// This file holds the sending of JSON-RPC batches (protocol revision
// 2025-03-26) by the Streamable HTTP client.

// batch POSTs a batch and reads its answer: nothing (202 Accepted, for a
// batch without calls), one JSON body (the array of responses, or an
// error refusing the batch), or an SSE stream read until it ends. The
// answer is not resumed: the calls it did not answer fail with a
// transport error (CallError) saying so. A refusal with an error status is returned as an
// *HTTPError.
func (c *StreamableClient) batch(ctx context.Context, b *protocol.Batch) error {
	hr, release, _, withSession, err := c.newPost(ctx, b, nil)
	if err != nil {
		return err
	}
	resp, err := c.post(ctx, hr, release)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		release()
		return c.failedPost(resp, protocol.ID{}, withSession)
	}
	pending := map[protocol.ID]bool{}
	for _, m := range b.Messages {
		if r, ok := m.(*protocol.Request); ok && r.IsCall() {
			pending[r.ID] = true
		}
	}
	switch mediaType(resp.Header.Get("Content-Type")) {
	case mediaSSE:
		if !c.spawn(func() { c.readBatchAnswer(release, pending, resp.Body) }) {
			resp.Body.Close()
			release()
			return ErrClosed
		}
		return nil
	case mediaJSON:
		defer release()
		defer resp.Body.Close()
		// As for a call: a failure from here on is the calls', reported
		// through Read.
		msg, err := c.readJSONAnswer(resp.Body, "")
		if err != nil {
			c.lostBatch(pending, err)
			return nil
		}
		c.deliver(msg, protocol.ID{})
		if r, ok := msg.(*protocol.Response); ok && !r.ID.IsValid() {
			return nil // the batch was refused as a whole
		}
		c.lostBatch(answered(pending, msg), errors.New("transport: the answer to its batch did not carry its response"))
		return nil
	default:
		release()
		resp.Body.Close()
		if resp.StatusCode == http.StatusAccepted {
			return nil
		}
		return fmt.Errorf("transport: the answer to a batch has Content-Type %q", resp.Header.Get("Content-Type"))
	}
}

// readBatchAnswer reads the SSE answer to a batch until it ends, then
// fails the calls whose responses it did not carry. It owns body.
func (c *StreamableClient) readBatchAnswer(release func(), pending map[protocol.ID]bool, body io.ReadCloser) {
	defer release()
	defer body.Close()
	r := newSSEReader(body, c.opts.MaxMessageSize)
	why := errors.New("transport: the answer stream of its batch ended before its response (batch answers are not resumed)")
	for len(pending) > 0 {
		ev, err := r.next()
		if err != nil {
			break
		}
		if de := ev.TooLarge; de != nil {
			if de.NotRequest && de.ID.IsValid() && pending[de.ID] {
				// One response of the batch, sent on its own.
				c.failCall(de.ID, de.Cause)
				delete(pending, de.ID)
				continue
			}
			// Most likely the array of responses itself (or a notification
			// about the calls): the calls still pending when the stream
			// ends fail saying so, not as a stream cut short.
			c.logger.Warn("an event of a batch's answer stream over the size limit", "error", de.Cause)
			why = de.Cause
			continue
		}
		msg, ok := ev.message(c.logger)
		if !ok {
			continue
		}
		c.deliver(msg, protocol.ID{})
		if r, ok := msg.(*protocol.Response); ok && !r.ID.IsValid() {
			return // the batch was refused as a whole
		}
		pending = answered(pending, msg)
	}
	c.lostBatch(pending, why)
}

// answered removes from pending the ids of the responses in msg.
func answered(pending map[protocol.ID]bool, msg protocol.Message) map[protocol.ID]bool {
	switch m := msg.(type) {
	case *protocol.Response:
		delete(pending, m.ID)
	case *protocol.Batch:
		for _, e := range m.Messages {
			if r, ok := e.(*protocol.Response); ok {
				delete(pending, r.ID)
			}
		}
	}
	return pending
}

// lostBatch fails each call of a batch whose response cannot come, with
// why.
func (c *StreamableClient) lostBatch(pending map[protocol.ID]bool, why error) {
	if len(pending) > 0 {
		c.logger.Warn("MCP HTTP answers to a batch lost", "calls", len(pending), "reason", why)
	}
	for id := range pending {
		c.failCall(id, why)
	}
}
