package proxy_test

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/proxy"
	"github.com/fastmcp-go/fastmcp/transport"
)

// serveInMemory serves s over an in-memory pipe and returns a client
// connected to it, and the function that closes both.
func serveInMemory(s *fastmcp.Server, opts ...client.Option) (*client.Client, func()) {
	cc, sc := transport.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Serve(ctx, sc) }()
	c, err := client.Connect(context.Background(), cc, append(opts, client.WithLogger(slog.New(slog.DiscardHandler)))...)
	if err != nil {
		panic(err)
	}
	return c, func() { c.Close(); cancel(); <-done }
}

// Example re-exposes a server through a proxy and mounts it, beside
// a local server, on a server of its own. In a real program the backend
// is remote or a subprocess (ConnectHTTP, ConnectCommand) and the front
// server is served with ServeStdio or ServeHTTP.
func Example() {
	quiet := fastmcp.Logger(slog.New(slog.DiscardHandler))
	backend := fastmcp.New("weather", "1.0.0", quiet)
	backend.Tool("forecast", func(in struct {
		City string `json:"city"`
	}) string {
		return "sunny in " + in.City
	}, fastmcp.Description("Tomorrow's weather"))

	// The client that reaches the backend; WithRequestForwarding lets the
	// backend's elicitation, sampling and roots requests reach the
	// proxy's own clients.
	upstream, stopBackend := serveInMemory(backend, client.WithRequestForwarding())
	defer stopBackend()
	remote := proxy.New(upstream, quiet)

	local := fastmcp.New("clock", "1.0.0", quiet)
	local.Tool("now", func() string { return "noon" }, fastmcp.Description("The time"))

	front := fastmcp.New("gateway", "1.0.0", quiet)
	front.Mount("weather", remote)
	front.Mount("clock", local)

	c, stop := serveInMemory(front)
	defer stop()
	ctx := context.Background()
	for tool, err := range c.Tools(ctx) {
		if err != nil {
			panic(err)
		}
		fmt.Println(tool.Name)
	}
	res, err := c.CallTool(ctx, "weather_forecast", map[string]string{"city": "Lyon"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Text())
	// Output:
	// clock_now
	// weather_forecast
	// sunny in Lyon
}
