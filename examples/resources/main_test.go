package main

import (
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/internal/exampletest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRun(t *testing.T) {
	out := exampletest.Run(t, run)
	t.Logf("output:\n%s", out)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{
		"resource config://app (app config, application/json)",
		"resource docs://readme (readme, text/markdown)",
		"template users://{id}/profile (user profile)",
		`read config://app: application/json {"region":"eu-west-1","debug":false}`,
		"read docs://readme: text/markdown # Users service",
		`read users://2/profile: application/json {"id":2,"name":"Grace"}`,
	}
	if len(lines) != len(want)+2 {
		t.Fatalf("%d lines, want %d", len(lines), len(want)+2)
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], w)
		}
	}
	// The errors' texts may change; what they say may not.
	if l := lines[len(want)]; !strings.HasPrefix(l, "read users://9/profile: error: ") || !strings.Contains(strings.ToLower(l), "not found") {
		t.Errorf("unknown user: %q, want a not-found error", l)
	}
	if l := lines[len(want)+1]; !strings.HasPrefix(l, "read users://x/profile: error: ") || !strings.Contains(l, "id") {
		t.Errorf("bad id: %q, want an error naming id", l)
	}
}
