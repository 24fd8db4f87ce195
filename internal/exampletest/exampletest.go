// Package exampletest runs the programs of examples/ under go test: each
// example has a run(ctx, out) that main calls, and its test checks what run
// writes.
package exampletest

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"
)

// Timeout bounds one run of an example; an example that is still running
// then has its context cancelled.
const Timeout = 30 * time.Second

// Run calls run with a context that ends after Timeout and returns what run
// wrote. If run returns an error, Run fails t at once, showing the error
// and the output so far.
func Run(t testing.TB, run func(context.Context, io.Writer) error) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), Timeout)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	return out.String()
}

// Equal fails t, showing both texts, if the output got is not want.
func Equal(t testing.TB, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
