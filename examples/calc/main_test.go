package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestMain lets the test binary play the server: started again with the
// argument "serve", it runs main, which serves over stdio.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		os.Args = os.Args[:1]
		main()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// TestREADME: the README's program is this one, line for line.
func TestREADME(t *testing.T) {
	if n := docsnippets.Check(t, []string{"../../README.md"}, []string{"main.go"}); n != 1 {
		t.Errorf("the README has %d Go snippets, want 1 (this program)", n)
	}
}

// TestServeStdio runs the program as a host would start it: add adds, and
// a negative b is refused by its validate rule before add runs.
func TestServeStdio(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.ConnectCommand(ctx, &transport.Command{
		Path: self, Args: []string{"serve"}, Env: []string{"GORACE=atexit_sleep_ms=0"}, Stderr: io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tests := []struct {
		args    map[string]int
		want    string
		isError bool
	}{
		{map[string]int{"a": 2, "b": 3}, "5", false},
		{map[string]int{"a": 2, "b": -1}, "b: must be >= 0", true},
	}
	for _, tt := range tests {
		res, err := c.CallTool(ctx, "add", tt.args)
		if err != nil {
			t.Fatalf("add %v: %v", tt.args, err)
		}
		if res.IsError != tt.isError || !strings.Contains(res.Text(), tt.want) {
			t.Errorf("add %v = %q (isError %v), want %q (isError %v)", tt.args, res.Text(), res.IsError, tt.want, tt.isError)
		}
	}
}
