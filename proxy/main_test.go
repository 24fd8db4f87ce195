package proxy_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine behind: a proxy's list
// and update workers end with its client.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
