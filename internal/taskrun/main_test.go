package taskrun

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine of the Manager's (a
// task's handler, the lease renewals) running.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
