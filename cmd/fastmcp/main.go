package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/fastmcp-go/fastmcp/transport"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the command line args and returns the process's exit code;
// main is only this and the signals, so that tests and the command read
// the same code path.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	root := app.rootCommand()
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	code := exitCode(ctx, err)
	if errors.Is(err, transport.ErrServerExited) {
		app.showServerStderr() // before the error, which stays the last line
	}
	if !silent(err) {
		fmt.Fprintln(stderr, "fastmcp:", app.errorText(err))
	}
	return code
}
