package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestMain lets the test binary play the server: started again with the
// argument "serve", it runs main, which serves over stdio.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		os.Args = os.Args[:1] // main's flags: none
		main()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// connectStdio starts the program as a host would and connects to it.
func connectStdio(t *testing.T, opts ...client.Option) *client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cl, err := client.ConnectCommand(ctx, &transport.Command{
		Path: self, Args: []string{"serve"}, Env: []string{"GORACE=atexit_sleep_ms=0"},
	}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cl.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return cl
}

// TestHost is what a host that renders views sees over stdio: both tools
// with the view, the view itself as one document, and the forecast.
func TestHost(t *testing.T) {
	c := connectStdio(t, client.WithApps())
	ctx := t.Context()
	tools := map[string]apps.ToolMeta{}
	for tool, err := range c.Tools(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		m, ok, err := apps.ToolMetaOf(tool)
		if !ok || err != nil {
			t.Fatalf("%s has no view metadata (%v)", tool.Name, err)
		}
		tools[tool.Name] = m
	}
	if tools["sales_report"].ResourceURI != view.URI || !tools["sales_report"].VisibleTo(apps.VisibilityModel) {
		t.Errorf("sales_report: %+v", tools["sales_report"])
	}
	if f := tools["forecast"]; f.ResourceURI != view.URI || f.VisibleTo(apps.VisibilityModel) || !f.VisibleTo(apps.VisibilityApp) {
		t.Errorf("forecast: %+v, want an app-only tool", f)
	}
	v, err := apps.ReadView(ctx, c, view.URI)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<button id="forecast"`, `request("ui/initialize"`, `#chart {`} {
		if !strings.Contains(v.HTML, want) {
			t.Errorf("the view lacks %s: the script and stylesheet must be inlined", want)
		}
	}
	if strings.Contains(v.HTML, `src="app.js"`) || v.Meta.PrefersBorder == nil || !*v.Meta.PrefersBorder {
		t.Errorf("view: %+v", v.Meta)
	}
	res, err := c.CallTool(ctx, "forecast", RegionArgs{"east"})
	if err != nil {
		t.Fatal(err)
	}
	var f Forecast
	if err := res.Structured(&f); err != nil || f != (Forecast{"east", "Jul", 270}) {
		t.Errorf("forecast = %+v, %v", f, err)
	}
}

// TestFallback is what a client without the extension sees: the report as
// text, and no forecast tool.
func TestFallback(t *testing.T) {
	c := connectStdio(t)
	ctx := t.Context()
	var names []string
	for tool, err := range c.Tools(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "sales_report" {
		t.Errorf("tools = %v, want only sales_report", names)
	}
	res, err := c.CallTool(ctx, "sales_report", RegionArgs{"north"})
	if err != nil {
		t.Fatal(err)
	}
	const want = "Sales in the north region, 945 units in total:\n- Jan: 120\n- Feb: 135\n- Mar: 150\n- Apr: 165\n- May: 180\n- Jun: 195\n"
	if got := res.Text(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
	var r Report
	if err := res.Structured(&r); err != nil || r.Total != 945 {
		t.Errorf("structured = %+v, %v", r, err)
	}
}
