package taskrun

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

func newTaskID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// taskWire returns the record as the tasks/get result.
func taskWire(r *store.TaskRecord) *protocol.DetailedTask {
	d := &protocol.DetailedTask{
		TaskID:         r.ID,
		Status:         r.Status,
		StatusMessage:  r.StatusMessage,
		CreatedAt:      rfc3339(r.CreatedAt),
		LastUpdatedAt:  rfc3339(r.UpdatedAt),
		PollIntervalMs: r.PollInterval.Milliseconds(),
	}
	if r.TTL > 0 {
		ms := r.TTL.Milliseconds()
		d.TTLMs = &ms
	}
	switch r.Status {
	case protocol.TaskCompleted:
		d.Result = json.RawMessage(r.Result)
	case protocol.TaskFailed:
		d.Error = r.Error
	case protocol.TaskInputRequired:
		d.InputRequests = r.InputRequests
	}
	return d
}

// taskCreated returns the record as the tools/call result that creates it.
func taskCreated(r *store.TaskRecord) *protocol.TaskCreatedResult {
	d := taskWire(r)
	return &protocol.TaskCreatedResult{
		ResultType: protocol.ResultTypeTask, TaskID: d.TaskID, Status: d.Status,
		StatusMessage: d.StatusMessage, CreatedAt: d.CreatedAt, LastUpdatedAt: d.LastUpdatedAt,
		TTLMs: d.TTLMs, PollIntervalMs: d.PollIntervalMs,
	}
}
