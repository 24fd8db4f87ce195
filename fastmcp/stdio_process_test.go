package fastmcp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/testproc"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
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
//   - "auth": Run with the Auth option, which stdio ignores
//
// Its tools: slow (sleeps ms milliseconds, reporting progress, then
// answers), exit (exits the process at once with status code), kill
// (kills the process) and whoami (see requestinfo_test.go).
func runStdioServer(mode string) int {
	var opts []fastmcp.Option
	if mode == "auth" {
		opts = append(opts, fastmcp.Auth(auth.Protect(auth.JWT("https://idp.example.com", "https://mcp.example.com/mcp"))))
		mode = "run"
	}
	s := fastmcp.New("stdio-test", "1.0.0", opts...)
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
	s.Tool("kill", func() (string, error) {
		self, err := os.FindProcess(os.Getpid())
		if err == nil {
			err = self.Kill()
		}
		return "", err
	})
	s.Tool("whoami", whoami)
	s.Tool("auth", func(ctx *fastmcp.Context) (string, error) {
		if ctx.Auth() != nil {
			return "token of " + ctx.Auth().Subject, nil
		}
		return "no token", nil
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

// stdioServerCommand returns a Command running the test binary as a stdio
// server in mode (see runStdioServer).
func stdioServerCommand(t *testing.T, mode string) *transport.Command {
	t.Helper()
	return testproc.Command(t, nil, stdioServerEnv+"="+mode)
}

// TestStdioServerDeathIsReported checks what a client sees when its server
// process dies: the call in flight, the one that killed it, and any later
// call fail with an error that says the server exited and how, and that
// matches session.ErrClosed; Close reports the failure too.
func TestStdioServerDeathIsReported(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tool string
		args any
		want string
	}{
		{"exit", map[string]int{"code": 3}, "server exited: exit status 3"},
		{"kill", nil, "server exited: signal: killed"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			t.Parallel()
			c, err := client.ConnectCommand(ctxT(t), stdioServerCommand(t, "serve"), client.WithLogger(quietLogger))
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, session.ErrClosed) || !errors.Is(err, transport.ErrServerExited) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: error %v; want session.ErrClosed and transport.ErrServerExited, saying %q", what, err, tc.want)
				}
			}
			pending := make(chan error, 1)
			go func() {
				_, err := c.CallTool(ctxT(t), "slow", map[string]int{"ms": 60000})
				pending <- err
			}()
			_, err = c.CallTool(ctxT(t), tc.tool, tc.args)
			check("the call that ended the server", err)
			select {
			case err := <-pending:
				check("a call in flight", err)
			case <-time.After(20 * time.Second):
				t.Fatal("the call in flight did not end")
			}
			_, err = c.CallTool(ctxT(t), "slow", map[string]int{"ms": 1})
			check("a later call", err)
			if err := c.Close(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Close = %v, want the server's failure (%s)", err, tc.want)
			}
		})
	}
}

// TestStdioCloseServerIgnoringEOF closes a client whose server does not
// exit when its stdin closes: Close ends it with SIGTERM after the grace
// period, and that is no failure of the server's to report.
func TestStdioCloseServerIgnoringEOF(t *testing.T) {
	t.Parallel()
	cmd := stdioServerCommand(t, "ignore-eof")
	cmd.GracePeriod = 50 * time.Millisecond
	c, err := client.ConnectCommand(ctxT(t), cmd, client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close = %v, want nil: the server was ended by the SIGTERM Close sent", err)
	}
}

// TestClientDone: Client.Done is open while the server runs and closed
// once the server process is gone, Err then saying how it ended; Close
// closes it too.
func TestClientDone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		end  func(t *testing.T, c *client.Client)
		want func(err error) bool
	}{
		{"server exits", func(t *testing.T, c *client.Client) {
			if _, err := c.CallTool(ctxT(t), "exit", map[string]int{"code": 3}); err == nil {
				t.Error("the call that ended the server succeeded")
			}
		}, func(err error) bool {
			return errors.Is(err, transport.ErrServerExited) && strings.Contains(err.Error(), "exit status 3")
		}},
		{"Close", func(t *testing.T, c *client.Client) {
			c.Close()
		}, func(err error) bool { return err != nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := client.ConnectCommand(ctxT(t), stdioServerCommand(t, "serve"), client.WithLogger(quietLogger))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Ping(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			select {
			case <-c.Done():
				t.Fatalf("Done closed while the server runs (Err %v)", c.Err())
			default:
			}
			if err := c.Err(); err != nil {
				t.Errorf("Err = %v while the server runs", err)
			}
			tc.end(t, c)
			select {
			case <-c.Done():
			case <-ctxT(t).Done():
				t.Fatal("Done was not closed")
			}
			if err := c.Err(); !tc.want(err) {
				t.Errorf("Err = %v", err)
			}
		})
	}
}
