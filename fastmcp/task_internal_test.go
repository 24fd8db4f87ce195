package fastmcp

import (
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
)

// TestTasksOptionsAddUp checks that a later Tasks option keeps what an
// earlier one set and it does not. (The defaults of the fields left zero
// are the runtime's: internal/taskrun's TestDefaults.)
func TestTasksOptionsAddUp(t *testing.T) {
	ts := store.NewMemoryTaskStore()
	s := enableTasks(New("t", "1", Tasks(TaskSettings{Store: ts, MaxRunning: 3}), Tasks(TaskSettings{TTL: time.Minute})))
	if got := s.cfg.tasks; got.Store != ts || got.TTL != time.Minute || got.MaxRunning != 3 || got.PollInterval != 0 {
		t.Errorf("tasks: store kept %v, ttl %v, max %d, poll %v", got.Store == ts, got.TTL, got.MaxRunning, got.PollInterval)
	}
	if taskStore(s) != ts {
		t.Error("the task manager does not use the Store of the Tasks option")
	}
}

// enableTasks makes s run tasks, as registering its first tool with TaskSupport
// does.
func enableTasks(s *Server) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	taskCode{}.enable(s)
	return s
}

// taskStore returns where s's task manager stores the tasks.
func taskStore(s *Server) store.TaskStore { return s.taskRuntime().(taskCode).m.Store() }
