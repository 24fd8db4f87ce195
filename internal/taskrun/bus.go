package taskrun

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// Tasks across replicas (a shared bus, store.Stores.Bus). The replica
// running a task subscribes to the task's control topic from its creation
// to its end, so that tasks/update and tasks/cancel received by another
// replica reach it; every replica with a listen stream following a task
// subscribes to the task's status topic for that stream (Follow), and the
// replica recording a new status publishes it there instead of sending it
// to its own streams.

// statusTopic is the topic of a task's status changes, relative to the
// bus's own prefix.
func statusTopic(id string) string { return "fastmcp/task/" + id + "/status" }

// controlTopic is the topic of the requests for a running task
// (tasks/update, tasks/cancel), heard by the replica running it.
func controlTopic(id string) string { return "fastmcp/task/" + id + "/control" }

// control is a message of controlTopic.
type control struct {
	Cancel         bool                    `json:"cancel,omitzero"`
	InputResponses protocol.InputResponses `json:"inputResponses,omitzero"`
}

// decodeControl decodes a message of controlTopic.
func decodeControl(msg []byte) (control, error) {
	var c control
	if err := protocol.Unmarshal(msg, &c); err != nil {
		return control{}, err
	}
	if !c.Cancel && len(c.InputResponses) == 0 {
		return control{}, fmt.Errorf("fastmcp: not a request for a task: %q", msg)
	}
	return c, nil
}

// publishTimeout bounds the publishing of a task's status.
const publishTimeout = 10 * time.Second

// publishStatus publishes the task's new state; when the bus cannot
// take it, this replica's listen streams get it all the same.
func (m *Manager) publishStatus(rec *store.TaskRecord) {
	raw, err := protocol.Marshal(taskWire(rec))
	if err != nil {
		m.logger.Error("encoding a task's status", "task", rec.ID, "error", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), publishTimeout)
	defer cancel()
	if err := m.bus().Publish(ctx, statusTopic(rec.ID), raw); err != nil {
		m.logger.Warn("bus: a task's status not published; only this replica's listeners get it", "task", rec.ID, "status", rec.Status, "error", err)
		m.broadcast(rec.ID, json.RawMessage(raw))
	}
}

// sendControl sends a request for a task running on another replica.
// Delivery is not confirmed: tasks/update and tasks/cancel are eventually
// consistent (the client keeps polling).
func (m *Manager) sendControl(ctx context.Context, id string, c control) error {
	msg, err := protocol.Marshal(c)
	if err != nil {
		return fmt.Errorf("fastmcp: encoding a request for task %q: %w", id, err)
	}
	if err := m.bus().Publish(ctx, controlTopic(id), msg); err != nil {
		return fmt.Errorf("fastmcp: passing the request on to the replica running task %q: %w", id, err)
	}
	return nil
}

// subscribeControl subscribes the replica creating a task to its
// control topic; the returned function ends the subscription. Without a
// bus it does nothing.
func (m *Manager) subscribeControl(ctx context.Context, id string) (func(), error) {
	b := m.bus()
	if b == nil {
		return func() {}, nil
	}
	un, err := b.Subscribe(ctx, controlTopic(id), func(msg []byte) {
		c, err := decodeControl(msg)
		if err != nil {
			m.logger.Warn("bus: ignoring a malformed request for a task", "task", id, "error", err)
			return
		}
		m.enqueue(func() { m.applyControl(id, c) })
	})
	if err != nil {
		return nil, fmt.Errorf("fastmcp: subscribing to the requests for task %q: %w", id, err)
	}
	return un, nil
}

// enqueue hands f to the server's bus worker.
func (m *Manager) enqueue(f func()) {
	if m.cfg.Enqueue != nil {
		m.cfg.Enqueue(f)
	}
}

// applyControl applies a request another replica received for a task
// running here.
func (m *Manager) applyControl(id string, c control) {
	t := m.lookup(id)
	if t == nil {
		return // ended meanwhile
	}
	// The bus worker serves every task's requests: it does not wait for
	// this task's store.
	if len(c.InputResponses) > 0 {
		t.answer(c.InputResponses, false)
	}
	if c.Cancel {
		t.cancelByClient(false)
	}
}

// Follow subscribes a listen stream to the status of the tasks ids it
// follows: deliver gets each new status (the params of notifications/tasks),
// on the server's bus worker (Config.Enqueue). The returned function ends
// the subscriptions. Without a bus it does nothing: notify sends to the
// listen streams directly (Config.Broadcast). Its error is the one the
// listen request fails with.
func (m *Manager) Follow(ctx context.Context, ids []string, deliver func(json.RawMessage)) (unfollow func(), err error) {
	var uns []func()
	stop := func() {
		for _, un := range uns {
			un()
		}
	}
	b := m.bus()
	if b == nil {
		return stop, nil
	}
	for _, id := range ids {
		un, err := b.Subscribe(ctx, statusTopic(id), func(msg []byte) {
			raw := json.RawMessage(append([]byte(nil), msg...))
			m.enqueue(func() { deliver(raw) })
		})
		if err != nil {
			stop()
			return nil, m.unavailable("subscribing to the status of the tasks followed",
				fmt.Errorf("fastmcp: subscribing to the status of task %q: %w", id, err))
		}
		uns = append(uns, un)
	}
	return stop, nil
}
