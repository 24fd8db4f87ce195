package main

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/internal/exampletest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRun(t *testing.T) {
	out := exampletest.Run(t, run)
	want := "healthz: 200 ok\ntool: whoami\nwhoami: tenant acme\nstopped\n"
	exampletest.Equal(t, out, want)
}
