package auth

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no goroutine outlives the tests: the key set's
// fetches end with their HTTP requests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
