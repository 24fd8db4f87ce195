package main

import (
	"regexp"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/internal/exampletest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRun(t *testing.T) {
	text := exampletest.Run(t, run)
	// In this order; other lines (the other methods' log) may come between.
	rest := text
	for _, want := range []string{
		"alice: echo → hello, alice\n",
		"anonymous: 1 tool(s) listed\n",
		"anonymous: echo → error: Invalid Request: tools/call needs a valid bearer token\n",
		"log: level=INFO msg=request method=tools/call caller=alice\n",
		`log: level=INFO msg=request method=tools/call caller="" error="Invalid Request: tools/call needs a valid bearer token"` + "\n",
		"timing: tools/call ×2, slowest ",
	} {
		i := strings.Index(rest, want)
		if i < 0 {
			t.Fatalf("output lacks %q (in order):\n%s", want, text)
		}
		rest = rest[i+len(want):]
	}
	if !regexp.MustCompile(`(?m)^timing: tools/call ×2, slowest [0-9.]+[µnm]?s$`).MatchString(text) {
		t.Errorf("no timing line with a duration:\n%s", text)
	}
}
