package protocol

// Tasks (2025-11-25 only). In that revision a request may run as a task:
// the receiver answers at once with a [CreateTaskResult] and the requester
// polls with tasks/get and fetches the outcome with tasks/result. From
// 2026-07-28 tasks are an extension (io.modelcontextprotocol/tasks) with a
// different shape, declared through Extensions in the capabilities: see
// task_ext.go (only TaskStatus and TaskParams are shared).

// TasksCapability declares task support (2025-11-25 only).
type TasksCapability struct {
	// List: tasks/list is supported.
	List *Capability `json:"list,omitzero"`
	// Cancel: tasks/cancel is supported.
	Cancel *Capability `json:"cancel,omitzero"`
	// Requests lists the requests that may run as tasks, keyed like their
	// method: {"tools":{"call":{}}} for a server, {"sampling":
	// {"createMessage":{}}} or {"elicitation":{"create":{}}} for a client.
	Requests map[string]map[string]Capability `json:"requests,omitzero"`
}

// TaskStatus is the state of a task.
type TaskStatus string

// Task states. Completed, failed and cancelled are terminal.
const (
	TaskWorking       TaskStatus = "working"
	TaskInputRequired TaskStatus = "input_required"
	TaskCompleted     TaskStatus = "completed"
	TaskFailed        TaskStatus = "failed"
	TaskCancelled     TaskStatus = "cancelled"
)

// TaskMetadata asks for a request to run as a task.
type TaskMetadata struct {
	// TTL is how long, in milliseconds, to keep the task after creation.
	TTL *int64 `json:"ttl,omitzero"`
}

// RelatedTaskMetadata is the value of [MetaRelatedTask]: the task a message
// belongs to.
type RelatedTaskMetadata struct {
	// TaskID is the task's id.
	TaskID string `json:"taskId"`
}

// Task is the state of a task.
type Task struct {
	// TaskID identifies the task.
	TaskID string `json:"taskId"`
	// Status is the current state.
	Status TaskStatus `json:"status"`
	// StatusMessage describes the state.
	StatusMessage string `json:"statusMessage,omitzero"`
	// CreatedAt is the ISO 8601 creation time.
	CreatedAt string `json:"createdAt"`
	// LastUpdatedAt is the ISO 8601 time of the last update.
	LastUpdatedAt string `json:"lastUpdatedAt"`
	// TTL is how long, in milliseconds, the task is kept after creation;
	// nil (encoded as null) means unlimited.
	TTL *int64 `json:"ttl"`
	// PollInterval suggests how often, in milliseconds, to poll.
	PollInterval *int64 `json:"pollInterval,omitzero"`
}

// CreateTaskResult answers a task-augmented request.
type CreateTaskResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused by 2025-11-25; see [ResultTypeComplete].
	ResultType string `json:"resultType,omitzero"`
	// Task is the created task.
	Task Task `json:"task"`
}

// TaskParams are the params of tasks/get, tasks/result and tasks/cancel.
type TaskParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// TaskID is the task.
	TaskID string `json:"taskId"`
}

// TaskResult is the result of tasks/get and tasks/cancel: the task's state.
type TaskResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused by 2025-11-25; see [ResultTypeComplete].
	ResultType string `json:"resultType,omitzero"`
	// Task is the task's state, encoded inline.
	Task Task `json:",embed"`
}

// ListTasksResult is the result of tasks/list.
type ListTasksResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused by 2025-11-25; see [ResultTypeComplete].
	ResultType string `json:"resultType,omitzero"`
	// Tasks is one page of tasks; always encoded.
	Tasks []Task `json:"tasks"`
	// NextCursor, when not empty, fetches the next page.
	NextCursor string `json:"nextCursor,omitzero"`
}

// TaskStatusParams are the params of notifications/tasks/status.
type TaskStatusParams struct {
	// Meta is the notification's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// Task is the task's new state, encoded inline.
	Task Task `json:",embed"`
}
