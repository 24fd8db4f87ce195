package apps_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing/fstest"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/transport"
)

type CityArgs struct {
	City string `json:"city"`
}

type Weather struct {
	City    string `json:"city"`
	Celsius int    `json:"celsius"`
}

// connect serves s over an in-memory pipe and connects a client to it.
func connect(s *fastmcp.Server, opts ...client.Option) (*client.Client, func()) {
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

// A tool with a view: hosts that render views get the tool's _meta.ui and
// read the view; other clients get the tool alone, and never see the tool
// only the view calls.
func Example() {
	view := apps.NewView("ui://weather/card.html", `<!doctype html><p id="temp"></p><script>/* ui/initialize… */</script>`)
	view.Meta.CSP = &apps.CSP{ConnectDomains: []string{"https://api.weather.example"}}

	s := fastmcp.New("weather", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("weather", func(in CityArgs) (Weather, error) { return Weather{in.City, 21}, nil },
		fastmcp.Description("Current weather of a city"), apps.WithView(view))
	s.Tool("refresh", func(in CityArgs) (Weather, error) { return Weather{in.City, 22}, nil },
		apps.WithView(view), apps.AppOnly())

	ctx := context.Background()
	host, stop := connect(s, client.WithApps())
	defer stop()
	for tool, err := range host.Tools(ctx) {
		if err != nil {
			panic(err)
		}
		m, _, _ := apps.ToolMetaOf(tool)
		fmt.Printf("host sees %s: view %s, visibility %v\n", tool.Name, m.ResourceURI, m.Visibility)
	}
	v, err := apps.ReadView(ctx, host, "ui://weather/card.html")
	if err != nil {
		panic(err)
	}
	fmt.Printf("view %s may connect to %v\n", v.URI, v.Meta.CSP.ConnectDomains)

	plain, stop2 := connect(s)
	defer stop2()
	for tool, err := range plain.Tools(ctx) {
		if err != nil {
			panic(err)
		}
		_, hasView, _ := apps.ToolMetaOf(tool)
		fmt.Printf("plain client sees %s, with a view: %v\n", tool.Name, hasView)
	}
	// Output:
	// host sees refresh: view ui://weather/card.html, visibility [app]
	// host sees weather: view ui://weather/card.html, visibility []
	// view ui://weather/card.html may connect to [https://api.weather.example]
	// plain client sees weather, with a view: false
}

// A view made of several files becomes one document: the scripts and
// stylesheets it references by relative path are inlined.
func ExampleViewFromFS() {
	files := fstest.MapFS{ // an embed.FS in a real program
		"view/index.html": {Data: []byte(`<link rel="stylesheet" href="style.css"><p>Hi</p><script src="app.js"></script>`)},
		"view/style.css":  {Data: []byte(`p { color: teal }`)},
		"view/app.js":     {Data: []byte(`console.log("hi")`)},
	}
	v, err := apps.ViewFromFS("ui://hello/view.html", files, "view/index.html")
	if err != nil {
		panic(err)
	}
	fmt.Println(v.HTML)
	// Output:
	// <style>p { color: teal }</style><p>Hi</p><script>console.log("hi")</script>
}
