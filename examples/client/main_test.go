package main

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/internal/exampletest"
)

// TestMain lets the test binary play the stdio server: run() starts
// os.Executable() with the argument "serve", which under test is this
// binary, so main's server mode must answer it.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		main()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

func TestRun(t *testing.T) {
	out := exampletest.Run(t, run)
	want := `stdio: connected to words 1.0.0
stdio: tool count: Count the words of a text
stdio: count → 3
http: connected to words 1.0.0
http: tool count: Count the words of a text
http: count → 3
`
	exampletest.Equal(t, out, want)
}
