package client

import (
	"context"
	"fmt"
	"iter"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// ListPrompts returns one page of the server's prompts; pass the previous
// page's NextCursor to get the next, "" for the first. Prompts walks them
// all.
func (c *Client) ListPrompts(ctx context.Context, cursor string) (*ListPromptsResult, error) {
	var res protocol.ListPromptsResult
	if err := c.call(ctx, protocol.MethodPromptsList, &protocol.ListParams{Cursor: cursor}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Prompts iterates over every prompt, fetching pages as needed. An error
// ends the iteration after being yielded.
func (c *Client) Prompts(ctx context.Context) iter.Seq2[*Prompt, error] {
	return paginate(ctx, func(ctx context.Context, cursor string) ([]*protocol.Prompt, string, error) {
		res, err := c.ListPrompts(ctx, cursor)
		if err != nil {
			return nil, "", err
		}
		return res.Prompts, res.NextCursor, nil
	})
}

// GetPrompt gets the prompt name filled in with args (nil for none). An
// unknown prompt, a missing required argument or an argument that does not
// fit gives an error matching ErrInvalidParams with errors.Is.
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*PromptResult, error) {
	var res protocol.GetPromptResult
	if err := c.call(ctx, protocol.MethodPromptsGet, &protocol.GetPromptParams{Name: name, Arguments: args}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Complete asks the server for suggestions for the argument arg of a prompt
// or resource template (see PromptRef and ResourceRef), given value, what
// the user has typed so far, and resolved, the arguments already filled in
// (nil for none; servers of protocol 2025-06-18 and later use them). The
// result holds at most 100 values, with the total count when the server
// knows it.
func (c *Client) Complete(ctx context.Context, ref CompleteReference, arg, value string, resolved map[string]string) (*CompleteResult, error) {
	p := &protocol.CompleteParams{Ref: ref, Argument: protocol.CompleteArgument{Name: arg, Value: value}}
	if len(resolved) > 0 {
		p.Context = &protocol.CompleteContext{Arguments: resolved}
	}
	var res protocol.CompleteResult
	if err := c.call(ctx, protocol.MethodCompletionComplete, p, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// SetLogLevel asks the server to send only log messages at level or
// above (logging/setLevel). It belongs to legacy revisions; on 2026-07-28,
// where the level travels with each request (see the WithLogLevel option), it
// returns an error matching ErrMethodNotFound.
func (c *Client) SetLogLevel(ctx context.Context, level LogLevel) error {
	if c.era.Dropped(protocol.MethodLoggingSetLevel) {
		return fmt.Errorf("%w: logging/setLevel is not part of protocol %s: use the LogLevel option", protocol.ErrMethodNotFound, c.ProtocolVersion())
	}
	return c.call(ctx, protocol.MethodLoggingSetLevel, &protocol.SetLevelParams{Level: level}, nil)
}
