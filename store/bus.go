package store

import (
	"context"
	"errors"
)

// A Bus delivers messages published on a topic to the topic's current
// subscribers, in every process sharing the bus: a list change, a resource
// update or a task's new status announced on one replica reaches the
// clients connected to the others, and a legacy session's messages reach
// the replica that serves the session. Implementations are safe for
// concurrent use: pubsub.NewMemory within one process, redisstore.NewBus
// over Redis.
//
// Delivery is at most once, as with Redis PUBLISH: a message published
// while a subscriber is disconnected, or that a slow subscriber has no
// room for, is not delivered to it. Keep anything that must not be lost in
// a store.
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

// ErrBusClosed is returned by Publish and Subscribe of a bus that was
// closed.
var ErrBusClosed = errors.New("store: bus closed")
