package fastmcp

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// busCode is the busRunner the settings that give a bus install
// (SharedStores, RegisterStoreBackend): the one way the rest of the server
// reaches this file's code.
type busCode struct{}

func (busCode) start(ctx context.Context, s *Server) error { return s.startBus(ctx) }
func (busCode) stop(s *Server)                             { s.stopBus() }
func (busCode) announce(ctx context.Context, s *Server, n busNotice) error {
	return s.announce(ctx, n)
}

// Topics of the bus, relative to the bus's own prefix (the tasks' topics
// are the task runtime's: internal/taskrun).
const (
	busTopicNotify = "fastmcp/notify" // list changes and resource updates
)

// busNotice is a message of busTopicNotify.
type busNotice struct {
	Method string `json:"method"`
	URI    string `json:"uri,omitzero"`
}

// decodeNotice decodes a message of busTopicNotify, refusing any but the
// announcements a server makes.
func decodeNotice(msg []byte) (busNotice, error) {
	var n busNotice
	if err := protocol.Unmarshal(msg, &n); err != nil {
		return busNotice{}, err
	}
	switch n.Method {
	case protocol.NotificationToolsListChanged, protocol.NotificationPromptsListChanged,
		protocol.NotificationResourcesListChanged:
		if n.URI == "" {
			return n, nil
		}
	case protocol.NotificationResourcesUpdated:
		if n.URI != "" {
			return n, nil
		}
	}
	return busNotice{}, fmt.Errorf("fastmcp: not an announcement: %q", msg)
}

// busQueue bounds the deliveries waiting for the bus worker.
const busQueue = 1024

// busDeliveryTimeout bounds the sending of one resource update to the
// legacy sessions of this replica.
const busDeliveryTimeout = 10 * time.Second

// busState is the server's side of the bus: its subscription to the
// announcements and the goroutine (the worker) that delivers what the bus
// brings to this replica's clients, in order, so that a slow client never
// holds up the bus.
type busState struct {
	bus store.Bus // nil without a shared bus (Stores.Bus)

	mu          sync.Mutex
	queue       chan func()   // nil until started
	stop        chan struct{} // closed at stop
	done        chan struct{} // closed when the worker returned
	unsubscribe func()        // ends the subscription to busTopicNotify
}

// startBus subscribes to the announcements and starts the worker; without
// a bus it does nothing.
func (s *Server) startBus(ctx context.Context) error {
	b := &s.bus
	if b.bus == nil {
		return nil
	}
	b.mu.Lock()
	b.queue, b.stop, b.done = make(chan func(), busQueue), make(chan struct{}), make(chan struct{})
	b.mu.Unlock()
	go s.busWorker(b.queue, b.stop, b.done)
	un, err := b.bus.Subscribe(ctx, busTopicNotify, func(msg []byte) {
		n, err := decodeNotice(msg)
		if err != nil {
			s.logger.Warn("bus: ignoring a malformed announcement", "error", err)
			return
		}
		s.enqueue(func() { s.deliverNotice(n) })
	})
	if err != nil {
		s.stopBus()
		return fmt.Errorf("fastmcp: subscribing to the bus: %w", err)
	}
	b.mu.Lock()
	b.unsubscribe = un
	b.mu.Unlock()
	return nil
}

// stopBus ends the subscription to the announcements and the worker,
// dropping what it had not delivered yet.
func (s *Server) stopBus() {
	b := &s.bus
	b.mu.Lock()
	un, stop, done := b.unsubscribe, b.stop, b.done
	b.unsubscribe = nil
	if stop != nil {
		select {
		case <-stop:
		default:
			close(stop)
		}
	}
	b.mu.Unlock()
	if un != nil {
		un()
	}
	if done != nil {
		<-done
	}
}

func (s *Server) busWorker(queue <-chan func(), stop, done chan struct{}) {
	defer close(done)
	for {
		select {
		case <-stop:
			return
		case f := <-queue:
			f()
		}
	}
}

// enqueue hands f to the worker; it is called from the bus's callbacks,
// which must return quickly. When the worker is not running (not started
// or stopped) or its queue is full, f is dropped.
func (s *Server) enqueue(f func()) {
	b := &s.bus
	b.mu.Lock()
	queue, stop := b.queue, b.stop
	b.mu.Unlock()
	if queue == nil {
		return
	}
	select {
	case <-stop:
		return
	default:
	}
	select {
	case queue <- f:
	default:
		s.logger.Warn("bus: deliveries to this replica's clients are too slow; one was dropped")
	}
}

// announce publishes n on the bus, whose worker delivers it on every
// replica, this one included. When it cannot be published it is delivered
// here only, and the error is returned.
func (s *Server) announce(ctx context.Context, n busNotice) error {
	msg, err := protocol.Marshal(n)
	if err == nil {
		err = s.bus.bus.Publish(ctx, busTopicNotify, msg)
	}
	if err != nil {
		s.logger.Warn("bus: announcement not published; only this replica's clients get it", "method", n.Method, "error", err)
		s.deliverNotice(n)
		return fmt.Errorf("fastmcp: publishing %s on the bus: %w", n.Method, err)
	}
	return nil
}

// deliverNotice delivers an announcement to this replica's clients.
func (s *Server) deliverNotice(n busNotice) {
	if n.Method == protocol.NotificationResourcesUpdated {
		ctx, cancel := context.WithTimeout(context.Background(), busDeliveryTimeout)
		defer cancel()
		if err := s.resources.subs.notify(ctx, n.URI); err != nil {
			s.logger.Debug("resources/updated not delivered to every session", "uri", n.URI, "error", err)
		}
		s.notifyListenersResourceUpdated(n.URI)
		return
	}
	s.notifyListChanged(n.Method)
}
