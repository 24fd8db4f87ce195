package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/fastmcp-go/fastmcp/oauthclient"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// The exit codes, documented in doc.go and docs/cli.md: a script can tell a
// mistake on its own command line from a server it could not reach, from a
// server that refused the request, from a tool that ran and failed.
const (
	exitOK          = 0   // success
	exitServer      = 1   // the server answered with an error (unknown resource, invalid params, ...), or another failure
	exitUsage       = 2   // the command line is wrong: flags, arguments, key=value, an unknown tool or prompt
	exitConnection  = 3   // the server could not be started, reached or authorized, or the connection broke
	exitToolError   = 4   // the tool ran and reported an error (isError: true)
	exitInterrupted = 130 // interrupted (Ctrl-C or SIGTERM)
)

// usageError is a mistake on the command line.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usage marks err as a mistake on the command line.
func usage(err error) error { return &usageError{err: err} }

// connectionError is a failure to start, reach or authorize the server.
type connectionError struct{ err error }

func (e *connectionError) Error() string { return e.err.Error() }
func (e *connectionError) Unwrap() error { return e.err }

// errInterrupted is returned by a command that saw Ctrl-C or SIGTERM
// end its work before the command's context was canceled.
var errInterrupted = fmt.Errorf("interrupted: %w", context.Canceled)

// errToolFailed is returned after printing a result with isError set; the
// result itself is the message.
var errToolFailed = errors.New("the tool reported an error")

// exitCode maps an error returned by a command to the process's exit code.
func exitCode(ctx context.Context, err error) int {
	var ue *usageError
	var pe *protocol.Error
	switch {
	case errors.Is(err, errToolFailed):
		return exitToolError
	case errors.Is(err, errInterrupted), ctx.Err() != nil && errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &ue), isFlagError(err):
		return exitUsage
	case errors.As(err, &pe):
		return exitServer
	case isConnectionError(err):
		return exitConnection
	}
	return exitServer
}

// isConnectionError reports an error of the connection rather than of the
// server's answer.
func isConnectionError(err error) bool {
	var ce *connectionError
	var oe *oauthclient.Error
	return errors.As(err, &ce) || errors.As(err, &oe) || errors.Is(err, transport.ErrTransport)
}

// isFlagError recognizes cobra's complaint about an unknown subcommand,
// a plain error (flag errors go through the root's FlagErrorFunc, and the
// commands' argument checks return usage errors themselves).
func isFlagError(err error) bool {
	return strings.HasPrefix(err.Error(), "unknown command ")
}

// silent reports an error already reported on stderr.
func silent(err error) bool { return errors.Is(err, errToolFailed) }

// message is the one line printed for err.
func message(err error) string {
	if errors.Is(err, context.Canceled) {
		return "interrupted"
	}
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}
