package main

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
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
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	want := `stdio: connected to words 1.0.0
stdio: tool count: Count the words of a text
stdio: count → 3
http: connected to words 1.0.0
http: tool count: Count the words of a text
http: count → 3
`
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
