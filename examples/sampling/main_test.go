package main

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/internal/exampletest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRun(t *testing.T) {
	out := exampletest.Run(t, run)
	want := `client: asked to sample 1 message(s), at most 60 tokens, system prompt "You write one-line summaries."
client: prompt: Summarize in one line: MCP lets a server ask the host's model for a completion, so the server needs no API key of its own.
result: [canned-llm] MCP lets a server ask the host's model...
`
	exampletest.Equal(t, out, want)
}
