package pubsub

import (
	"context"
	"errors"
)

// A Bus delivers messages published on a topic to the topic's current
// subscribers, in every process sharing the bus. Implementations are safe
// for concurrent use.
type Bus interface {
	// Publish sends msg to every subscriber of topic, including those of
	// this process. It returns once the bus has taken the message, not
	// once it was delivered; an error means it was not sent (errors of
	// store/redisstore match redisstore.ErrRedis). Publish does not keep
	// msg after it returns.
	Publish(ctx context.Context, topic string, msg []byte) error
	// Subscribe calls fn with each message published on topic after
	// Subscribe returns, until the returned function is called. fn is
	// called from a goroutine of the bus, one message at a time and in
	// the order each publisher sent them; it must return quickly and must
	// not keep msg after it returns. It may call Publish and Subscribe,
	// and the function that ends its own subscription. The returned
	// function may be called more than once; once it returns, fn is not
	// called again (a call already under way may still be finishing).
	Subscribe(ctx context.Context, topic string, fn func(msg []byte)) (unsubscribe func(), err error)
}

// ErrClosed is returned by Publish and Subscribe of a bus that was closed.
var ErrClosed = errors.New("pubsub: bus closed")
