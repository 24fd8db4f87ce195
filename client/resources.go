package client

import (
	"context"
	"iter"
	"maps"
	"slices"
	"sync"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// WithListenRestoredHandler sets a function called when the client's
// subscriptions/listen stream (2026-07-28), which had ended (its stream
// broke, as when the server replica holding it went away, or the server
// ended it), is acknowledged again. The client sends the listen again on
// its own; the notifications the server sent in between are lost, so fn
// should re-read whatever the client watches (lists, subscribed
// resources). It runs on the connection's reading goroutine: it must not
// block. Legacy sessions resume their stream with Last-Event-ID instead.
func WithListenRestoredHandler(fn func()) Option {
	return option(func(c *config) { c.onListenRestored = fn })
}

// WithResourceUpdatedHandler sets a function called with the URI of every
// notifications/resources/updated the server sends, whichever subscription
// it answers (see Client.Subscribe for per-URI callbacks). It runs on the
// connection's reading goroutine, in order: it must not block.
func WithResourceUpdatedHandler(fn func(uri string)) Option {
	return option(func(c *config) { c.onUpdated = fn })
}

// resourceSubs holds the callbacks given to Subscribe, by URI. The zero
// value is ready to use.
type resourceSubs struct {
	mu  sync.Mutex
	fns map[string]*subscription
}

// subscription is one Subscribe call's callback; its pointer identifies it.
type subscription struct{ fn func(uri string) }

func (r *resourceSubs) set(uri string, s *subscription) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fns == nil {
		r.fns = map[string]*subscription{}
	}
	r.fns[uri] = s
}

// drop forgets uri's callback; with s non-nil only if it is still s.
func (r *resourceSubs) drop(uri string, s *subscription) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s == nil || r.fns[uri] == s {
		delete(r.fns, uri)
	}
}

func (r *resourceSubs) get(uri string) *subscription {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fns[uri]
}

// resourceUpdated dispatches notifications/resources/updated: to the
// callback of the subscription to that URI, then to WithResourceUpdatedHandler's.
func (c *Client) resourceUpdated(p *protocol.ResourceUpdatedParams) {
	if s := c.subs.get(p.URI); s != nil && s.fn != nil {
		s.fn(p.URI)
	}
	if c.cfg.onUpdated != nil {
		c.cfg.onUpdated(p.URI)
	}
}

// ListResources returns one page of the server's resources; pass the
// previous page's NextCursor to get the next, "" for the first. Resources
// walks them all.
func (c *Client) ListResources(ctx context.Context, cursor string) (*ListResourcesResult, error) {
	var res protocol.ListResourcesResult
	if err := c.call(ctx, protocol.MethodResourcesList, &protocol.ListParams{Cursor: cursor}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Resources iterates over every resource, fetching pages as needed. An
// error ends the iteration after being yielded.
func (c *Client) Resources(ctx context.Context) iter.Seq2[*Resource, error] {
	return paginate(ctx, func(ctx context.Context, cursor string) ([]*protocol.Resource, string, error) {
		res, err := c.ListResources(ctx, cursor)
		if err != nil {
			return nil, "", err
		}
		return res.Resources, res.NextCursor, nil
	})
}

// ListResourceTemplates returns one page of the server's resource
// templates; ResourceTemplates walks them all.
func (c *Client) ListResourceTemplates(ctx context.Context, cursor string) (*ListResourceTemplatesResult, error) {
	var res protocol.ListResourceTemplatesResult
	if err := c.call(ctx, protocol.MethodResourcesTemplatesList, &protocol.ListParams{Cursor: cursor}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// ResourceTemplates iterates over every resource template, fetching pages
// as needed. An error ends the iteration after being yielded.
func (c *Client) ResourceTemplates(ctx context.Context) iter.Seq2[*ResourceTemplate, error] {
	return paginate(ctx, func(ctx context.Context, cursor string) ([]*protocol.ResourceTemplate, string, error) {
		res, err := c.ListResourceTemplates(ctx, cursor)
		if err != nil {
			return nil, "", err
		}
		return res.ResourceTemplates, res.NextCursor, nil
	})
}

// ReadResource reads the resource uri: a static resource's URI or one that
// matches a resource template. An unknown URI gives an error matching
// ErrResourceNotFound with errors.Is on every revision (the server answers
// -32002 before 2026-07-28 and -32602 since, which also matches
// ErrInvalidParams); either way the *Error's Data holds
// {"uri": uri}.
func (c *Client) ReadResource(ctx context.Context, uri string) (*ReadResourceResult, error) {
	var res protocol.ReadResourceResult
	if err := c.call(ctx, protocol.MethodResourcesRead, &protocol.ReadResourceParams{URI: uri}, &res); err != nil {
		return nil, resourceNotFound(err, uri)
	}
	return &res, nil
}

// Subscribe asks the server to report changes to the resource uri
// (resources/subscribe) and calls fn with the URI of each
// notifications/resources/updated for it, until Unsubscribe or the end of
// the connection. Subscribing to a URI again replaces its callback; fn may
// be nil when WithResourceUpdatedHandler handles every update. fn runs on the
// connection's reading goroutine, in order: it must not block (start a
// goroutine to read the resource again).
//
// On 2026-07-28, which has no resources/subscribe, the client instead
// (re)opens its subscriptions/listen stream with the subscribed URIs.
func (c *Client) Subscribe(ctx context.Context, uri string, fn func(uri string)) error {
	// Set before asking, so that an update sent right after the server's
	// answer is not missed.
	s := &subscription{fn: fn}
	c.subs.set(uri, s)
	if c.era.Dropped(protocol.MethodResourcesSubscribe) {
		c.relisten(ctx)
		return nil
	}
	if err := c.call(ctx, protocol.MethodResourcesSubscribe, &protocol.SubscribeParams{URI: uri}, nil); err != nil {
		c.subs.drop(uri, s)
		return err
	}
	return nil
}

// Unsubscribe cancels the subscription to uri (resources/unsubscribe) and
// forgets its callback.
func (c *Client) Unsubscribe(ctx context.Context, uri string) error {
	c.subs.drop(uri, nil)
	if c.era.Dropped(protocol.MethodResourcesUnsubscribe) {
		c.relisten(ctx)
		return nil
	}
	return c.call(ctx, protocol.MethodResourcesUnsubscribe, &protocol.UnsubscribeParams{URI: uri}, nil)
}

// subscribedURIs lists the resources the client is subscribed to, sorted.
func (c *Client) subscribedURIs() []string {
	c.subs.mu.Lock()
	defer c.subs.mu.Unlock()
	return slices.Sorted(maps.Keys(c.subs.fns))
}
