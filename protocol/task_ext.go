package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
)

// The tasks extension (SEP-2663, io.modelcontextprotocol/tasks) on the
// 2026-07-28 wire. A server that decides to run a tools/call as a task
// answers with a [TaskCreatedResult] (resultType "task"); the client polls
// tasks/get, which returns a [DetailedTask], answers input requests with
// tasks/update and may cancel with tasks/cancel. tasks/result and tasks/list
// of 2025-11-25 do not exist in the extension.

// ExtensionTasks is the identifier of the tasks extension, declared under
// Extensions in the client's and the server's capabilities.
const ExtensionTasks = "io.modelcontextprotocol/tasks"

// ResultTypeTask marks a [TaskCreatedResult].
const ResultTypeTask = "task"

// TaskCreatedResult answers a request the server runs as a task (tasks
// extension): the task's state, flat at the top level of the result.
type TaskCreatedResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is ResultTypeTask.
	ResultType string `json:"resultType"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// Status is the task's state.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the state.
	StatusMessage string `json:"statusMessage,omitzero"`
	// CreatedAt is the RFC 3339 creation time.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is the RFC 3339 time of the last change.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTLMs is how long, in milliseconds from creation, the task is kept;
	// nil (encoded as null) means unlimited.
	TTLMs *int64 `json:"ttlMs"`
	// PollIntervalMs suggests how often, in milliseconds, to poll; 0 omits it.
	PollIntervalMs int64 `json:"pollIntervalMs,omitzero"`
}

// DetailedTask is the result of tasks/get (tasks extension): the task's
// state and, by status, its outcome — Result when completed, Error when
// failed, InputRequests when input_required.
type DetailedTask struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is ResultTypeComplete (the server fills it in when empty).
	ResultType string `json:"resultType,omitzero"`
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// Status is the task's state.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the state.
	StatusMessage string `json:"statusMessage,omitzero"`
	// CreatedAt is the RFC 3339 creation time.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is the RFC 3339 time of the last change.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTLMs is how long, in milliseconds from creation, the task is kept;
	// nil (encoded as null) means unlimited.
	TTLMs *int64 `json:"ttlMs"`
	// PollIntervalMs suggests how often, in milliseconds, to poll; 0 omits it.
	PollIntervalMs int64 `json:"pollIntervalMs,omitzero"`
	// Result is what the request would have returned had it not run as a
	// task (status completed), kept raw.
	Result json.RawMessage `json:"result,omitzero"`
	// Error is the JSON-RPC error the request failed with (status failed).
	Error *Error `json:"error,omitzero"`
	// InputRequests are the requests the client must answer with
	// tasks/update (status input_required).
	InputRequests InputRequests `json:"inputRequests,omitzero"`
}

// TaskUpdateParams are the params of tasks/update (tasks extension).
type TaskUpdateParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// TaskID is the task.
	TaskID string `json:"taskId"`
	// InputResponses answer some or all of the task's InputRequests, by key.
	InputResponses InputResponses `json:"inputResponses"`
}

// ErrNoTaskResult is returned by [DetailedTask.ToolResult] for a task that
// has not completed: one still working or waiting for input, or one that
// was cancelled.
var ErrNoTaskResult = errors.New("protocol: the task has no result")

// ToolResult decodes the result of a completed task that runs a tools/call:
// the *CallToolResult the call would have returned. A failed task returns
// its *Error (which matches the protocol sentinels with errors.Is); a task
// in any other state an error matching ErrNoTaskResult.
func (d *DetailedTask) ToolResult() (*CallToolResult, error) {
	switch d.Status {
	case TaskCompleted:
	case TaskFailed:
		if d.Error == nil {
			return nil, fmt.Errorf("protocol: task %s failed without an error", d.TaskID)
		}
		return nil, d.Error
	default:
		return nil, fmt.Errorf("%w: task %s is %s", ErrNoTaskResult, d.TaskID, d.Status)
	}
	var r CallToolResult
	if err := jsonUnmarshal(d.Result, &r); err != nil {
		return nil, fmt.Errorf("protocol: the result of task %s: %w", d.TaskID, err)
	}
	return &r, nil
}
