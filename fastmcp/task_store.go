package fastmcp

import (
	"errors"
	"fmt"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// ErrTaskStoreUnavailable is wrapped by the error a request that needs the
// task store (a tools/call run as a task, tasks/get, tasks/update,
// tasks/cancel) fails with when the store fails: a shared store whose
// Redis is down, say. The client gets a JSON-RPC internal error saying the
// task store is unavailable; the store's own error, which may name
// internal hosts, goes to the server's log only.
var ErrTaskStoreUnavailable = errors.New("task store unavailable")

// unavailable logs the store's failure while doing something, and returns
// the error the request fails with.
func (m *taskManager) unavailable(doing string, err error, args ...any) error {
	m.logger.Error("task store failed while "+doing, append(args, "error", err)...)
	return fmt.Errorf("%w: %w while %s; try again later", protocol.ErrInternal, ErrTaskStoreUnavailable, doing)
}
