// Command server100 is the fastmcp side of the process startup benchmark
// (package bench): a stdio server with 100 tools, each taking a distinct
// five-field argument struct. It serves until its input ends.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/fastmcp-go/fastmcp/bench/internal/tools100"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

func main() {
	s := fastmcp.New("bench", "1", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	tools100.Register(s)
	if err := s.ServeStdio(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
