package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	want := `db: opened memory://notes
put greeting → 1 row(s)
put farewell → 2 row(s)
get greeting → hello
get missing → error: no row with key "missing"
db: closed with 2 row(s)
`
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestOpenFails checks that a lifespan error stops the server from
// starting, and comes back to the caller.
func TestOpenFails(t *testing.T) {
	var out bytes.Buffer
	_, _, err := serve(context.Background(), newServer("postgres://db", &out))
	if err == nil || !strings.Contains(err.Error(), "only memory:// databases") {
		t.Fatalf("serve with a bad dsn: %v, want the lifespan's error", err)
	}
	if out.Len() != 0 {
		t.Errorf("output %q, want none", out.String())
	}
}
