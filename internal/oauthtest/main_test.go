package oauthtest_test

import (
	"testing"

	"go.uber.org/goleak"
)

// The Server serves on a goroutine of its own; Close must end it.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
