// Command httpmux mounts an MCP server in a program's own http.ServeMux,
// beside a /healthz route of its own, and serves it with its own
// http.Server. Run it with
//
//	go run ./examples/httpmux
//
// It listens on 127.0.0.1 (a free port), connects to /mcp as a client,
// calls a tool that reads a request header, checks /healthz, and shuts the
// HTTP server down. It prints:
//
//	healthz: 200 ok
//	tool: whoami
//	whoami: tenant acme
//	stopped
//
// To serve only MCP (plus /healthz and extra routes from HandleHTTP), Run
// or ServeHTTP is shorter: see examples/serving.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// whoami answers with the X-Tenant header of the HTTP request that carried
// the call (empty over stdio).
func whoami(ctx *fastmcp.Context) (string, error) {
	tenant := ""
	if r := ctx.HTTPRequest(); r != nil { // nil over stdio
		tenant = r.Header.Get("X-Tenant")
	}
	return "tenant " + tenant, nil
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "httpmux:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	s := fastmcp.New("mux-demo", "1.0.0",
		fastmcp.HTTPEndpoints(func(c *fastmcp.HTTPConfig) { c.NoSSE = true })) // Streamable HTTP at /mcp only
	s.Tool("whoami", whoami, fastmcp.Description("Say which tenant is calling"))

	mux := http.NewServeMux()
	mux.Handle("/mcp", s) // the Server is an http.Handler
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "ok")
	})

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	base := "http://" + ln.Addr().String()

	err = use(ctx, base, out)

	// Shut down: end the MCP sessions and streams first (calls in flight
	// may finish; open SSE streams would otherwise hold http.Server.Shutdown
	// until its deadline), then the server.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	s.Shutdown(sctx)
	srv.Shutdown(sctx)
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	fmt.Fprintln(out, "stopped")
	return err
}

// use checks /healthz and calls the tool as a client would.
func use(ctx context.Context, base string, out io.Writer) error {
	resp, err := http.Get(base + "/healthz")
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Fprintf(out, "healthz: %d %s\n", resp.StatusCode, body)

	cl, err := client.ConnectHTTP(ctx, base+"/mcp",
		client.WithHTTPHeader(http.Header{"X-Tenant": {"acme"}}))
	if err != nil {
		return err
	}
	defer cl.Close()
	for tool, err := range cl.Tools(ctx) {
		if err != nil {
			return err
		}
		fmt.Fprintln(out, "tool:", tool.Name)
	}
	res, err := cl.CallTool(ctx, "whoami", nil)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "whoami:", res.Text())
	return nil
}
