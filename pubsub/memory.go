package pubsub

import (
	"context"
	"log/slog"
	"sync"

	"github.com/fastmcp-go/fastmcp/store"
)

// MemoryOptions configures a memory bus. The zero value is ready to use.
type MemoryOptions struct {
	// Buffer bounds the messages waiting for one subscriber; a message
	// that finds the buffer full is dropped for that subscriber, with a
	// warning logged. Zero means 1024.
	Buffer int
	// Logger receives the warnings. Nil means slog.Default().
	Logger *slog.Logger
}

// Memory is a store.Bus within one process. Each subscription has a goroutine
// that runs its callback; Close ends them all.
type Memory struct {
	buffer int
	logger *slog.Logger

	mu     sync.Mutex
	topics map[string]map[*memSub]struct{}
	closed bool
	wg     sync.WaitGroup
}

type memSub struct {
	ch   chan []byte
	stop chan struct{}
	once sync.Once
	fn   func([]byte)
}

var _ store.Bus = (*Memory)(nil)

// NewMemory returns a bus that delivers within this process. opts may be
// nil.
func NewMemory(opts *MemoryOptions) *Memory {
	m := &Memory{buffer: 1024, logger: slog.Default(), topics: map[string]map[*memSub]struct{}{}}
	if opts != nil {
		if opts.Buffer > 0 {
			m.buffer = opts.Buffer
		}
		if opts.Logger != nil {
			m.logger = opts.Logger
		}
	}
	return m
}

// Publish delivers a copy of msg to each subscriber of topic that has room
// for it.
func (m *Memory) Publish(ctx context.Context, topic string, msg []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return store.ErrBusClosed
	}
	subs := m.topics[topic]
	if len(subs) == 0 {
		return nil
	}
	data := append([]byte(nil), msg...)
	for s := range subs {
		select {
		case s.ch <- data:
		default:
			m.logger.Warn("pubsub: subscriber too slow, message dropped", "topic", topic)
		}
	}
	return nil
}

// Subscribe starts a goroutine that calls fn with the messages of topic
// until the subscription ends or the bus is closed.
func (m *Memory) Subscribe(ctx context.Context, topic string, fn func(msg []byte)) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := &memSub{ch: make(chan []byte, m.buffer), stop: make(chan struct{}), fn: fn}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, store.ErrBusClosed
	}
	subs := m.topics[topic]
	if subs == nil {
		subs = map[*memSub]struct{}{}
		m.topics[topic] = subs
	}
	subs[s] = struct{}{}
	m.wg.Add(1)
	m.mu.Unlock()
	go m.run(s)
	unsubscribe := func() {
		m.mu.Lock()
		if subs := m.topics[topic]; subs != nil {
			delete(subs, s)
			if len(subs) == 0 {
				delete(m.topics, topic)
			}
		}
		m.mu.Unlock()
		s.once.Do(func() { close(s.stop) })
	}
	return unsubscribe, nil
}

// run calls the subscriber's callback until it is stopped. A message
// already taken when the subscription ends is not delivered.
func (m *Memory) run(s *memSub) {
	defer m.wg.Done()
	for {
		select {
		case <-s.stop:
			return
		case msg := <-s.ch:
			select {
			case <-s.stop:
				return
			default:
			}
			s.fn(msg)
		}
	}
}

// Close ends every subscription and waits for their callbacks to return;
// later calls of Publish and Subscribe fail with store.ErrBusClosed. It must not be
// called from a callback.
func (m *Memory) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	for _, subs := range m.topics {
		for s := range subs {
			s.once.Do(func() { close(s.stop) })
		}
	}
	m.topics = nil
	m.mu.Unlock()
	m.wg.Wait()
	return nil
}
