package redisstore

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/store"
)

// BusOptions configures a Bus. The zero value takes the defaults.
type BusOptions struct {
	// Prefix starts the Redis channel of every topic, so that several
	// servers can share one Redis. Default DefaultPrefix.
	Prefix string
	// Buffer bounds the messages received and waiting for their callbacks;
	// a message that finds the buffer full is dropped, with a warning
	// logged. Zero means 1024.
	Buffer int
	// Logger receives the warnings. Nil means slog.Default().
	Logger *slog.Logger
}

// Bus is a store.Bus over Redis PUBLISH and SUBSCRIBE, so that the
// replicas of a server sharing one Redis hear each other's announcements.
//
// A Bus holds one Redis connection for its subscriptions, whatever their
// number, and two goroutines: one reads that connection, one runs the
// callbacks, one message at a time. Close ends them. When the connection
// breaks, the bus reconnects on its own and subscribes again to every
// topic; messages published while it was disconnected are lost to it, as
// Redis pub/sub keeps nothing for a subscriber that is away.
type Bus struct {
	rdb    redis.UniversalClient
	ps     *redis.PubSub
	prefix string
	logger *slog.Logger

	queue    chan busDelivery
	closing  chan struct{}
	finished sync.WaitGroup

	// cmdMu orders the SUBSCRIBE and UNSUBSCRIBE commands with the changes
	// of topics that decide them; it is held while a command is written.
	cmdMu sync.Mutex
	// mu guards topics and closed; it is never held during I/O.
	mu     sync.Mutex
	topics map[string]*busTopic // by Redis channel
	closed bool
}

// busTopic is one Redis channel the bus subscribed to for local
// subscribers.
type busTopic struct {
	subs      map[*busSub]struct{}
	ready     chan struct{} // closed when Redis confirmed the subscription
	confirmed bool
}

type busSub struct {
	fn     func([]byte)
	active bool // guarded by Bus.mu
}

type busDelivery struct {
	msg  []byte
	subs []*busSub
}

var _ store.Bus = (*Bus)(nil)

// NewBus returns a Bus on rdb. It connects in the background and keeps
// reconnecting while Redis is away; Subscribe fails while it cannot reach
// Redis. The caller calls Close when done, before closing rdb. opts may
// be nil.
func NewBus(rdb redis.UniversalClient, opts *BusOptions) *Bus {
	b := &Bus{
		rdb:     rdb,
		prefix:  DefaultPrefix,
		logger:  slog.Default(),
		closing: make(chan struct{}),
		topics:  map[string]*busTopic{},
	}
	buffer := 1024
	if opts != nil {
		if opts.Prefix != "" {
			b.prefix = opts.Prefix
		}
		if opts.Buffer > 0 {
			buffer = opts.Buffer
		}
		if opts.Logger != nil {
			b.logger = opts.Logger
		}
	}
	b.queue = make(chan busDelivery, buffer)
	// A PubSub without channels does not connect until it is read.
	b.ps = rdb.Subscribe(context.Background())
	in := b.ps.ChannelWithSubscriptions(redis.WithChannelSize(buffer))
	b.finished.Add(2)
	go b.receive(in)
	go b.deliver()
	return b
}

func (b *Bus) channel(topic string) string { return b.prefix + "bus:" + topic }

// Publish sends msg to the subscribers of topic in every process using the
// same Redis and prefix. An error matching ErrRedis means Redis did not
// take it.
func (b *Bus) Publish(ctx context.Context, topic string, msg []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed {
		return store.ErrBusClosed
	}
	if err := b.rdb.Publish(ctx, b.channel(topic), msg).Err(); err != nil {
		return fmt.Errorf("%w: publish on %q: %w", ErrRedis, topic, err)
	}
	return nil
}

// Subscribe calls fn with the messages published on topic from the moment
// it returns; it returns once Redis confirmed the subscription (at once
// when this bus already holds one for topic). It fails with an error
// matching ErrRedis when the command cannot be sent, and with the
// context's error when Redis does not confirm before ctx ends.
func (b *Bus) Subscribe(ctx context.Context, topic string, fn func(msg []byte)) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ch := b.channel(topic)
	s := &busSub{fn: fn, active: true}
	b.cmdMu.Lock()
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		b.cmdMu.Unlock()
		return nil, store.ErrBusClosed
	}
	t := b.topics[ch]
	created := t == nil
	if created {
		t = &busTopic{subs: map[*busSub]struct{}{}, ready: make(chan struct{})}
		b.topics[ch] = t
	}
	t.subs[s] = struct{}{}
	b.mu.Unlock()
	if created {
		if err := b.ps.Subscribe(ctx, ch); err != nil {
			// go-redis keeps the channel to subscribe again on reconnect
			// even when the command failed; forget it.
			_ = b.ps.Unsubscribe(context.WithoutCancel(ctx), ch)
			b.mu.Lock()
			delete(b.topics, ch)
			s.active = false
			b.mu.Unlock()
			b.cmdMu.Unlock()
			return nil, fmt.Errorf("%w: subscribe to %q: %w", ErrRedis, topic, err)
		}
	}
	b.cmdMu.Unlock()
	unsubscribe := func() { b.unsubscribe(ch, t, s) }
	select {
	case <-t.ready:
		return unsubscribe, nil
	case <-b.closing:
		unsubscribe()
		return nil, store.ErrBusClosed
	case <-ctx.Done():
		unsubscribe()
		return nil, fmt.Errorf("redisstore: subscribe to %q: Redis did not confirm: %w", topic, ctx.Err())
	}
}

// unsubscribe ends s. The Redis channel is unsubscribed when its last
// subscriber leaves, unless its subscription is not confirmed yet: then
// the confirmation unsubscribes it, so that a stale confirmation never
// passes for a later subscription's.
func (b *Bus) unsubscribe(ch string, t *busTopic, s *busSub) {
	b.cmdMu.Lock()
	defer b.cmdMu.Unlock()
	b.mu.Lock()
	if !s.active {
		b.mu.Unlock()
		return
	}
	s.active = false
	delete(t.subs, s)
	drop := len(t.subs) == 0 && t.confirmed && b.topics[ch] == t && !b.closed
	if drop {
		delete(b.topics, ch)
	}
	b.mu.Unlock()
	if drop {
		b.unsubscribeRedis(ch)
	}
}

// unsubscribeRedis sends UNSUBSCRIBE for ch; the caller holds cmdMu. A
// failure is only logged: go-redis has forgotten the channel, so a
// reconnection does not subscribe to it again, and until then its
// messages find no subscriber.
func (b *Bus) unsubscribeRedis(ch string) {
	if err := b.ps.Unsubscribe(context.Background(), ch); err != nil {
		b.logger.Warn("redisstore: bus unsubscribe failed", "channel", ch, "err", err)
	}
}

// receive reads the subscription connection until the PubSub is closed:
// it marks subscriptions confirmed and queues each message with the
// subscribers it is for.
func (b *Bus) receive(in <-chan any) {
	defer b.finished.Done()
	defer close(b.queue)
	for m := range in {
		switch m := m.(type) {
		case *redis.Subscription:
			if m.Kind == "subscribe" {
				b.confirm(m.Channel)
			}
		case *redis.Message:
			b.mu.Lock()
			t := b.topics[m.Channel]
			var subs []*busSub
			if t != nil {
				for s := range t.subs {
					subs = append(subs, s)
				}
			}
			b.mu.Unlock()
			if len(subs) == 0 {
				continue
			}
			select {
			case b.queue <- busDelivery{msg: []byte(m.Payload), subs: subs}:
			default:
				b.logger.Warn("redisstore: bus subscribers too slow, message dropped", "channel", m.Channel)
			}
		}
	}
}

// confirm marks ch's subscription confirmed, and unsubscribes it when its
// subscribers left while it waited.
func (b *Bus) confirm(ch string) {
	b.cmdMu.Lock()
	defer b.cmdMu.Unlock()
	b.mu.Lock()
	t := b.topics[ch]
	if t == nil || t.confirmed {
		b.mu.Unlock()
		return
	}
	t.confirmed = true
	close(t.ready)
	drop := len(t.subs) == 0 && !b.closed
	if drop {
		delete(b.topics, ch)
	}
	b.mu.Unlock()
	if drop {
		b.unsubscribeRedis(ch)
	}
}

// deliver runs the callbacks of the queued messages, in order, skipping
// subscriptions that ended since the message arrived.
func (b *Bus) deliver() {
	defer b.finished.Done()
	for d := range b.queue {
		for _, s := range d.subs {
			b.mu.Lock()
			active := s.active && !b.closed
			b.mu.Unlock()
			if active {
				s.fn(d.msg)
			}
		}
	}
}

// Close ends every subscription, closes the subscription connection and
// waits for the bus's goroutines to end; later calls of Publish and
// Subscribe fail with store.ErrBusClosed. It does not close the client
// given to NewBus, and must not be called from a callback.
func (b *Bus) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	close(b.closing)
	b.mu.Unlock()
	err := b.ps.Close()
	b.finished.Wait()
	if err != nil {
		return fmt.Errorf("%w: close the subscription connection: %w", ErrRedis, err)
	}
	return nil
}
