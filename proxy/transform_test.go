package proxy_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/proxy"
)

type forecastArgs struct {
	City  string `json:"city"`
	Units string `json:"units" validate:"oneof=metric imperial"`
}

// TestTransformProxiedTool: a tool of a proxy mounted on a server is
// transformed there. The derived tool appears once the proxy has fetched
// its backend's list, its call reaches the backend with the arguments
// mapped back and the hidden one added, the backend's validation holds,
// and the derived tool follows the backend's changes.
func TestTransformProxiedTool(t *testing.T) {
	t.Parallel()
	backend := newServer()
	backend.Tool("forecast", func(in forecastArgs) (string, error) {
		return "sunny in " + in.City + " (" + in.Units + ")", nil
	})
	upstream := connect(t, backend, client.WithRequestForwarding())
	front := newServer()
	front.Mount("weather", proxy.New(upstream, fastmcp.Logger(quietLogger)))
	front.TransformTool("weather_forecast", "forecast_eu",
		fastmcp.Description("Tomorrow's weather, metric"),
		fastmcp.TransformArg("city", fastmcp.ArgTransform{Rename: "town"}),
		fastmcp.TransformArg("units", fastmcp.ArgTransform{Hide: true, Default: "metric"}))
	front.TransformTool("weather_later", "later_eu", fastmcp.TransformArg("units", fastmcp.ArgTransform{Hide: true, Default: "metric"}))

	changed := make(chan string, 8)
	c := connect(t, front, client.WithListChangedHandler(func(m string) { changed <- m }))
	ctx := ctxT(t)
	if _, err := c.ListTools(ctx, ""); err != nil { // waits for the proxy's first fetch
		t.Fatal(err)
	}
	res, err := c.CallTool(ctx, "forecast_eu", map[string]any{"town": "Lyon"})
	if err != nil || res.IsError || res.Text() != "sunny in Lyon (metric)" {
		t.Fatalf("derived call of a proxied tool: %v %+v", err, res)
	}
	res, err = c.CallTool(ctx, "forecast_eu", map[string]any{"town": "Lyon", "units": "imperial"})
	if err != nil || !res.IsError || !strings.Contains(res.Text(), "units: is not an argument") {
		t.Fatalf("a hidden argument from the client: %v %+v", err, res)
	}

	backend.Tool("later", func(in forecastArgs) (string, error) { return "later in " + in.City, nil })
	for {
		res, err = c.CallTool(ctx, "later_eu", json.RawMessage(`{"city":"Nice"}`))
		if err == nil {
			break
		}
		recvT(t, changed)
	}
	if res.IsError || res.Text() != "later in Nice" {
		t.Fatalf("derived from a tool the backend added later: %+v", res)
	}
	backend.RemoveTool("later")
	for {
		if _, err = c.CallTool(ctx, "later_eu", json.RawMessage(`{"city":"Nice"}`)); err != nil {
			break
		}
		recvT(t, changed)
	}
}
