// Command floor is the hand-written floor of the comparison: what serving
// the same tools costs with the standard library alone and no SDK. Over
// stdio it is a bufio line loop that decodes each request with
// encoding/json into a struct and answers in order; over HTTP it is a
// net/http handler at /mcp doing the same per POST, without sessions.
package main

import (
	"log"
	"os"

	"github.com/fastmcp-go/fastmcp/bench/compare/internal/args"
)

func main() {
	cfg := args.Parse()
	list, err := toolsList(cfg.Tools100)
	if err != nil {
		log.Fatal(err)
	}
	if cfg.HTTP != "" {
		log.Fatal(serveHTTP(cfg.HTTP, list))
	}
	if err := serveStdio(os.Stdin, os.Stdout, list); err != nil {
		log.Fatal(err)
	}
}
