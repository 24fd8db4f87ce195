// Command apps is the complete program of docs/apps.md: a tool with an
// interactive view (the MCP Apps extension). sales_report returns a
// region's monthly sales; hosts that render views show them as a table and
// a bar chart, whose "Forecast" button calls forecast, a tool only the view
// may call, and shows its answer. Other clients get the report as text.
//
//	go run ./examples/apps                      # stdio, for a host to start
//	go run ./examples/apps -addr localhost:8000 # Streamable HTTP at /mcp
//
// The view is view/index.html with its script and stylesheet, embedded in
// the binary and inlined into one document by apps.ViewFromFS. Its
// JavaScript speaks the view's side of the protocol by hand (postMessage
// JSON-RPC): no build step, nothing fetched from the network.
package main

import (
	"context"
	"embed"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

//go:embed view
var viewFiles embed.FS

// view is the sales chart, shared by both tools.
var view = apps.Must(apps.ViewFromFS("ui://sales/chart.html", viewFiles, "view/index.html"))

func init() {
	view.Name = "Sales chart"
	view.Description = "A region's monthly sales as a table and a bar chart, with a forecast button"
	border := true
	view.Meta.PrefersBorder = &border
}

// RegionArgs name a sales region.
type RegionArgs struct {
	Region string `json:"region" jsonschema:"description=the sales region" validate:"oneof=north south east west"`
}

// Month is one month's sales.
type Month struct {
	Month string `json:"month"`
	Units int    `json:"units"`
}

// Report is sales_report's structured result, which the view renders.
type Report struct {
	Region string  `json:"region"`
	Months []Month `json:"months"`
	Total  int     `json:"total"`
}

var months = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun"}

// base is each region's January; every month adds a fixed step.
var base = map[string]struct{ start, step int }{
	"north": {120, 15}, "south": {200, -10}, "east": {90, 30}, "west": {150, 5},
}

func report(region string) Report {
	r := Report{Region: region}
	b := base[region]
	for i, m := range months {
		units := b.start + i*b.step
		r.Months = append(r.Months, Month{m, units})
		r.Total += units
	}
	return r
}

// salesReport returns the report as text, for the model and for clients
// without views, and as structured content, for the view.
func salesReport(in RegionArgs) (*fastmcp.ToolResult, error) {
	r := report(in.Region)
	var text strings.Builder
	fmt.Fprintf(&text, "Sales in the %s region, %d units in total:\n", r.Region, r.Total)
	for _, m := range r.Months {
		fmt.Fprintf(&text, "- %s: %d\n", m.Month, m.Units)
	}
	structured, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return &fastmcp.ToolResult{Content: []fastmcp.Content{fastmcp.Text(text.String())}, StructuredContent: structured}, nil
}

// Forecast is forecast's result.
type Forecast struct {
	Region string `json:"region"`
	Month  string `json:"month"`
	Units  int    `json:"units"`
}

// forecast extends the region's trend by one month.
func forecast(in RegionArgs) (Forecast, error) {
	b := base[in.Region]
	return Forecast{in.Region, "Jul", b.start + len(months)*b.step}, nil
}

func newServer() *fastmcp.Server {
	s := fastmcp.New("sales", "1.0.0", fastmcp.Instructions("Sales figures by region, with a chart in hosts that render MCP Apps views."))
	s.Tool("sales_report", salesReport,
		fastmcp.Description("Monthly sales of a region (north, south, east or west), shown as a chart"),
		fastmcp.ReadOnly(), apps.WithView(view))
	s.Tool("forecast", forecast,
		fastmcp.Description("Next month's forecast for a region; called by the chart's button"),
		fastmcp.ReadOnly(), apps.WithView(view), apps.AppOnly())
	return s
}

func main() {
	s := newServer()
	s.Flags(flag.CommandLine) // -addr for Streamable HTTP; stdio without it
	flag.Parse()
	if err := s.Run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "apps:", err)
		os.Exit(1)
	}
}
