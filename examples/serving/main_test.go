package main

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestMain lets the test binary play the server: started again with the
// argument "serve", it runs main, which serves over stdio (no FASTMCP_ADDR
// reaches it: a Command passes on only a few environment variables).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		os.Args = os.Args[:1] // main's flags: none
		main()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// syncBuffer is the server's stderr, written by the process's copier and
// read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestServeStdio runs the program as a host would start it, calls its tool
// and checks that the lifespan's cleanup ran when the client went away.
func TestServeStdio(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	c, err := client.ConnectCommand(ctx, &transport.Command{
		Path: self, Args: []string{"serve"}, Stderr: &stderr,
		Env: []string{"GORACE=atexit_sleep_ms=0"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"1", "2"} {
		res, err := c.CallTool(ctx, "add_note", NoteArgs{Text: "note"})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*fastmcp.TextContent).Text; res.IsError || got != want {
			t.Errorf("add_note #%d = %q (isError %v), want %s", i+1, got, res.IsError, want)
		}
	}
	// Closing the client closes the server's stdin and waits for it to exit.
	if err := c.Close(); err != nil {
		t.Fatalf("close: %v\nstderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "store closed with 2 notes\n") {
		t.Errorf("the lifespan's cleanup did not run; stderr:\n%s", stderr.String())
	}
}
