package main

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/internal/exampletest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRun(t *testing.T) {
	out := exampletest.Run(t, run)
	want := `asked: Delete /tmp/cache? (fields: confirm, reason)
answered: accept
result: deleted /tmp/cache (reason: stale)
asked: Delete /home/ada? (fields: confirm, reason)
answered: decline
result: kept /home/ada: the user declined
`
	exampletest.Equal(t, out, want)
}
