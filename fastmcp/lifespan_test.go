package fastmcp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/transport"
)

// DB stands for whatever a lifespan opens.
type DB struct{ Name string }

func TestLifespanOrderAndTypedState(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var events []string
	record := func(e string) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}
	s := newServer(fastmcp.Lifespan(func(ctx context.Context) (*DB, func(context.Context) error, error) {
		record("start")
		return &DB{Name: "pool"}, func(context.Context) error { record("cleanup"); return nil }, nil
	}))
	s.Tool("db", func(ctx *fastmcp.Context) string {
		db := fastmcp.State[*DB](ctx) // typed: no assertion in user code
		record("call " + db.Name)
		return db.Name
	})
	c := connect(t, s)
	if res, err := c.CallTool(ctxT(t), "db", nil); err != nil || textOf(t, res) != "pool" {
		t.Fatalf("call: %v %v", res, err)
	}
	c.Close()
	if err := s.Shutdown(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if err := s.Shutdown(ctxT(t)); err != nil {
		t.Fatal("second Shutdown:", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(events, ", "); got != "start, call pool, cleanup" {
		t.Fatalf("events: %s", got)
	}
}

func TestStateWithoutLifespanIsZero(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("n", func(ctx *fastmcp.Context) string {
		return fmt.Sprint(fastmcp.State[int](ctx), fastmcp.State[*DB](ctx) == nil)
	})
	c := connect(t, s)
	if res, err := c.CallTool(ctxT(t), "n", nil); err != nil || textOf(t, res) != "0 true" {
		t.Fatalf("%v %v", res, err)
	}
}

func TestStateTypeMismatchPanicsClearly(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.Lifespan(func(context.Context) (*DB, func(context.Context) error, error) {
		return &DB{}, nil, nil
	}))
	msg := make(chan string, 1)
	s.Tool("wrong", func(ctx *fastmcp.Context) string {
		defer func() { msg <- fmt.Sprint(recover()) }()
		fastmcp.State[string](ctx)
		return ""
	})
	c := connect(t, s)
	c.CallTool(ctxT(t), "wrong", nil)
	if got := <-msg; !strings.Contains(got, "fastmcp.State[string]: the server's Lifespan returns *fastmcp_test.DB; call fastmcp.State[*fastmcp_test.DB]") {
		t.Fatalf("panic = %s", got)
	}
}

var errNoDatabase = errors.New("database unreachable")

func TestLifespanFailureStopsStartup(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(fastmcp.Listener(ln), fastmcp.Lifespan(func(context.Context) (int, func(context.Context) error, error) {
		return 0, nil, errNoDatabase
	}))
	err = s.Run(ctxT(t))
	if !errors.Is(err, errNoDatabase) || !strings.Contains(err.Error(), `starting server "test": lifespan: database unreachable`) {
		t.Fatalf("Run = %v", err)
	}
	cc, sc := transport.NewPipe()
	defer cc.Close()
	if err := s.Serve(ctxT(t), sc); !errors.Is(err, errNoDatabase) {
		t.Fatalf("Serve = %v", err)
	}
}

func TestCleanupErrorIsReported(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.Lifespan(func(context.Context) (int, func(context.Context) error, error) {
		return 1, func(context.Context) error { return errNoDatabase }, nil
	}))
	if err := s.Start(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if err := s.Shutdown(ctxT(t)); !errors.Is(err, errNoDatabase) {
		t.Fatalf("Shutdown = %v", err)
	}
	if err := s.Start(ctxT(t)); !errors.Is(err, fastmcp.ErrServerReused) {
		t.Fatalf("Start after Shutdown = %v", err)
	}
}

// TestHelperRun is not a test: the signal tests run the test binary again
// with FASTMCP_TEST_HELPER set, and then it is a server program calling
// Run, configured by the environment.
func TestHelperRun(t *testing.T) {
	if os.Getenv("FASTMCP_TEST_HELPER") == "" {
		t.Skip("helper process for the signal tests")
	}
	s := fastmcp.New("helper", "1.0.0", fastmcp.Lifespan(func(context.Context) (string, func(context.Context) error, error) {
		fmt.Fprintln(os.Stderr, "lifespan: started")
		return "state", func(context.Context) error {
			fmt.Fprintln(os.Stderr, "lifespan: cleaned up")
			return nil
		}, nil
	}))
	s.Tool("slow", func(ctx *fastmcp.Context) (string, error) {
		fmt.Fprintln(os.Stderr, "slow: running")
		time.Sleep(300 * time.Millisecond) // deliberately ignores ctx: shutdown must wait for it
		return "finished " + fastmcp.State[string](ctx), nil
	})
	if err := s.Run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "run:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// startHelper starts the helper server with env and returns it and a
// channel of its stderr lines.
func startHelper(t *testing.T, env ...string) (*exec.Cmd, <-chan string, *os.File, *os.File) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRun$")
	cmd.Env = append(os.Environ(), append(env, "FASTMCP_TEST_HELPER=1", "GORACE=atexit_sleep_ms=0")...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, inW, _ := os.Pipe()
	outR, stdout, _ := os.Pipe()
	cmd.Stdin, cmd.Stdout = stdin, stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	stdout.Close()
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); inW.Close(); outR.Close() })
	return cmd, lines, inW, outR
}

func waitLine(t *testing.T, lines <-chan string, want string) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("helper exited before printing %q", want)
			}
			if strings.Contains(l, want) {
				return
			}
		case <-timeout:
			t.Fatalf("helper did not print %q", want)
		}
	}
}

func TestSIGTERMLetsInFlightCallFinishHTTP(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("a process cannot be sent SIGTERM on Windows")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd, lines, _, _ := startHelper(t, "FASTMCP_ADDR="+addr, "FASTMCP_LOG_LEVEL=error")
	waitLine(t, lines, "lifespan: started")
	var c *client.Client
	for range 200 {
		if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		time.Sleep(10 * time.Millisecond) // waiting for another process to listen
	}
	c, err = client.ConnectHTTP(ctxT(t), "http://"+addr+"/mcp", client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sigtermDuringSlowCall(t, cmd, lines, c)
}

func TestSIGTERMLetsInFlightCallFinishStdio(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("a process cannot be sent SIGTERM on Windows")
	}
	cmd, lines, in, out := startHelper(t, "FASTMCP_LOG_LEVEL=error")
	waitLine(t, lines, "lifespan: started")
	c, err := client.Connect(ctxT(t), transport.NewStream(out, in, nil), client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sigtermDuringSlowCall(t, cmd, lines, c)
}

// sigtermDuringSlowCall calls the helper's slow tool through c, sends the
// helper SIGTERM while the call runs, and checks that the call finishes,
// the lifespan is cleaned up and the helper exits with status 0.
func sigtermDuringSlowCall(t *testing.T, cmd *exec.Cmd, lines <-chan string, c *client.Client) {
	t.Helper()
	res := make(chan string, 1)
	go func() {
		r, err := c.CallTool(ctxT(t), "slow", nil)
		if err != nil {
			res <- err.Error()
			return
		}
		res <- textOf(t, r)
	}()
	waitLine(t, lines, "slow: running")
	cmd.Process.Signal(syscall.SIGTERM)
	if got := <-res; got != "finished state" {
		t.Fatalf("in-flight call = %q, want it to finish", got)
	}
	waitLine(t, lines, "lifespan: cleaned up")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v, want status 0", err)
	}
}
