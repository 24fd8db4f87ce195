package fastmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// Tasks across replicas (a shared bus, Stores.Bus). The replica running a task
// subscribes to the task's control topic from its creation to its end, so
// that tasks/update and tasks/cancel received by another replica reach it;
// every replica with a listen stream following a task subscribes to the
// task's status topic for that stream, and the replica recording a new
// status publishes it there instead of sending it to its own streams.

// publishTaskStatus publishes the task's new state; when the bus cannot
// take it, this replica's listen streams get it all the same.
func (s *Server) publishTaskStatus(rec *store.TaskRecord) {
	raw, err := protocol.Marshal(taskWire(rec))
	if err != nil {
		s.logger.Error("encoding a task's status", "task", rec.ID, "error", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), busDeliveryTimeout)
	defer cancel()
	if err := s.bus.bus.Publish(ctx, busTaskStatus(rec.ID), raw); err != nil {
		s.logger.Warn("bus: a task's status not published; only this replica's listeners get it", "task", rec.ID, "status", rec.Status, "error", err)
		s.listen.send(protocol.NotificationTasks, json.RawMessage(raw),
			func(f *protocol.SubscriptionFilter) bool { return slices.Contains(f.TaskIDs, rec.ID) })
	}
}

// sendTaskControl sends a request for a task running on another replica.
// Delivery is not confirmed: tasks/update and tasks/cancel are eventually
// consistent (the client keeps polling).
func (s *Server) sendTaskControl(ctx context.Context, id string, c busControl) error {
	msg, err := protocol.Marshal(c)
	if err != nil {
		return fmt.Errorf("fastmcp: encoding a request for task %q: %w", id, err)
	}
	if err := s.bus.bus.Publish(ctx, busTaskControl(id), msg); err != nil {
		return fmt.Errorf("fastmcp: passing the request on to the replica running task %q: %w", id, err)
	}
	return nil
}

// subscribeTaskControl subscribes the replica creating a task to its
// control topic; the returned function ends the subscription. Without a
// bus it does nothing.
func (s *Server) subscribeTaskControl(ctx context.Context, id string) (func(), error) {
	if s.bus.bus == nil {
		return func() {}, nil
	}
	un, err := s.bus.bus.Subscribe(ctx, busTaskControl(id), func(msg []byte) {
		c, err := decodeControl(msg)
		if err != nil {
			s.logger.Warn("bus: ignoring a malformed request for a task", "task", id, "error", err)
			return
		}
		s.enqueue(func() { s.applyTaskControl(id, c) })
	})
	if err != nil {
		return nil, fmt.Errorf("fastmcp: subscribing to the requests for task %q: %w", id, err)
	}
	return un, nil
}

// applyTaskControl applies a request another replica received for a task
// running here.
func (s *Server) applyTaskControl(id string, c busControl) {
	s.tasks.mu.Lock()
	rt := s.tasks.running[id]
	s.tasks.mu.Unlock()
	if rt == nil {
		return // ended meanwhile
	}
	// The bus worker serves every task's requests: it does not wait for
	// this task's store.
	if len(c.InputResponses) > 0 {
		rt.answer(c.InputResponses, false)
	}
	if c.Cancel {
		rt.cancelByClient(false)
	}
}

// followTasks subscribes ln to the status of the tasks it follows; the
// returned function ends the subscriptions. Without a bus it does nothing
// (notifyTask sends to the listeners directly).
func (s *Server) followTasks(ctx context.Context, ln *listener) (func(), error) {
	var uns []func()
	stop := func() {
		for _, un := range uns {
			un()
		}
	}
	if s.bus.bus == nil {
		return stop, nil
	}
	for _, id := range ln.filter.TaskIDs {
		un, err := s.bus.bus.Subscribe(ctx, busTaskStatus(id), func(msg []byte) {
			raw := json.RawMessage(append([]byte(nil), msg...))
			s.enqueue(func() { ln.send(protocol.NotificationTasks, raw) })
		})
		if err != nil {
			stop()
			return nil, fmt.Errorf("fastmcp: subscribing to the status of task %q: %w", id, err)
		}
		uns = append(uns, un)
	}
	return stop, nil
}
