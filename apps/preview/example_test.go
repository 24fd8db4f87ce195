package preview_test

import (
	"context"
	"log"
	"os"
	"os/signal"

	"github.com/fastmcp-go/fastmcp/apps/preview"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// Preview the app server ./my-app-server (run over stdio) until Ctrl-C.
// The page's URL is printed to standard error.
func ExamplePreview_ListenAndServe() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	client, err := fastmcp.ConnectCommand(ctx, &fastmcp.Command{Path: "./my-app-server"})
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	p := preview.New(client, nil)
	// Prints "Preview: http://127.0.0.1:PORT/" and serves until ctx is done.
	if err := p.ListenAndServe(ctx, "127.0.0.1:0", os.Stderr); err != nil {
		log.Fatal(err)
	}
}
