package fastmcp_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// downStore is a task store whose every operation fails as a store
// behind an unreachable network would.
type downStore struct{}

var errDown = errors.New("dial tcp 10.0.0.7:6379: connect: connection refused")

func (downStore) Create(context.Context, *store.TaskRecord) error { return errDown }
func (downStore) Get(context.Context, string) (*store.TaskRecord, error) {
	return nil, errDown
}
func (downStore) Update(context.Context, *store.TaskRecord) error { return errDown }
func (downStore) List(context.Context, string) ([]*store.TaskRecord, error) {
	return nil, errDown
}

// lockedBuffer is a log destination safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestTaskStoreUnavailable: every request that needs a failing task store
// gets an internal error saying the store is unavailable, without the
// store's own error (which names internal hosts); the log has it. A plain
// tool keeps working.
func TestTaskStoreUnavailable(t *testing.T) {
	logs := &lockedBuffer{}
	s, url := taskServer(t, fastmcp.Tasks(fastmcp.TaskSettings{Store: downStore{}}),
		fastmcp.Logger(slog.New(slog.NewTextHandler(logs, nil))))
	s.Tool("slow", func(*fastmcp.Context, struct{}) (string, error) { return "done", nil }, fastmcp.TaskSupport(fastmcp.TaskRequired))
	s.Tool("plain", func(*fastmcp.Context, struct{}) (string, error) { return "plain", nil })
	rpc := &taskRPC{t: t, url: url, tasks: true}

	for _, tc := range []struct {
		method string
		params map[string]any
		doing  string
	}{
		{"tools/call", map[string]any{"name": "slow", "arguments": map[string]any{}}, "storing a new task"},
		{"tasks/get", map[string]any{"taskId": "t1"}, "reading the task"},
		{"tasks/cancel", map[string]any{"taskId": "t1"}, "reading the task"},
		{"tasks/update", map[string]any{"taskId": "t1", "inputResponses": map[string]any{}}, "reading the task"},
	} {
		rep := rpc.call(tc.method, tc.params)
		if rep.Error == nil || rep.Error.Code != protocol.CodeInternalError ||
			rep.Error.Message != "Internal error: task store unavailable while "+tc.doing+"; try again later" {
			t.Errorf("%s: %+v, want an internal error saying the task store is unavailable while %s", tc.method, rep.Error, tc.doing)
		}
	}
	if got := firstText(t, rpc.callTool("plain", map[string]any{})); got != "plain" {
		t.Errorf("plain tool = %q", got)
	}
	if l := logs.String(); !strings.Contains(l, "task store failed while storing a new task") || !strings.Contains(l, "10.0.0.7:6379") {
		t.Errorf("log = %q, want the store's error", l)
	}
}
