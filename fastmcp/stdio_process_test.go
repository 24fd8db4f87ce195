package fastmcp_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// stdioServerEnv, set in the environment of the test binary, makes it run
// runStdioServer instead of the tests: a real server process for the tests
// of the stdio transport.
const stdioServerEnv = "FASTMCP_TEST_STDIO_SERVER"

// SlowArgs are the arguments of the test server's slow tool.
type SlowArgs struct {
	MS int `json:"ms"`
}

// runStdioServer serves a small server on stdin/stdout as mode says and
// returns the exit code:
//   - "serve": ServeStdio
//   - "run": Run (stdio by default)
//   - "ignore-eof": ServeStdio, then it never exits of its own accord (a
//     server that does not stop when its stdin closes)
//
// Its tools: slow (sleeps ms milliseconds, reporting progress, then answers)
// and exit (exits the process at once with status code).
func runStdioServer(mode string) int {
	s := fastmcp.New("stdio-test", "1.0.0")
	s.Tool("slow", func(ctx *fastmcp.Context, in SlowArgs) (string, error) {
		for i := range 3 {
			_ = ctx.Progress(float64(i), 3, "working")
			select {
			case <-time.After(time.Duration(in.MS) * time.Millisecond / 3):
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}
		return fmt.Sprintf("slept %d ms", in.MS), nil
	})
	s.Tool("exit", func(in struct {
		Code int `json:"code"`
	}) (string, error) {
		os.Exit(in.Code)
		return "", nil
	})
	var err error
	switch mode {
	case "serve", "ignore-eof":
		err = s.ServeStdio(context.Background())
	case "run":
		err = s.Run(context.Background())
	default:
		err = fmt.Errorf("unknown mode %q", mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "stdio test server:", err)
		return 1
	}
	if mode == "ignore-eof" {
		time.Sleep(time.Hour) // until a signal ends the process
	}
	return 0
}
