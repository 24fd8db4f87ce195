package preview_test

import (
	"context"
	"log"
	"os"
	"os/signal"

	"github.com/fastmcp-go/fastmcp/apps/preview"
	"github.com/fastmcp-go/fastmcp/client"
)

// Preview the app server ./my-app-server (run over stdio) until Ctrl-C.
// The page's URL is printed to standard error. The client declares the
// extension (WithApps): servers give other clients no views.
func ExamplePreview_ListenAndServe() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	c, err := client.ConnectCommand(ctx, &client.Command{Path: "./my-app-server"}, client.WithApps())
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	p := preview.New(c, nil)
	// Prints "Preview: http://127.0.0.1:PORT/" and serves until ctx is done.
	if err := p.ListenAndServe(ctx, "127.0.0.1:0", os.Stderr); err != nil {
		log.Fatal(err)
	}
}
