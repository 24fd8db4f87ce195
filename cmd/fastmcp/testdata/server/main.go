// Command server is the fastmcp command's test server: a small fastmcp
// server with a tool of each kind the command handles. The tests build it
// (without the race detector, so it starts fast) and run it over stdio or
// HTTP:
//
//	server -stdio
//	server -stdio -hostile   # a server whose every text is hostile (hostile.go)
//	server -http 127.0.0.1:0 [-issuer URL]   # prints "listening on URL" once it listens
//
// With -issuer, the server requires OAuth access tokens issued by that
// authorization server for its own URL, and has a whoami tool.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

type addArgs struct {
	A int `json:"a" jsonschema:"description=The first addend"`
	B int `json:"b" jsonschema:"description=The second addend"`
}

type sum struct {
	Sum int `json:"sum"`
}

type scaleArgs struct {
	Values []float64 `json:"values" jsonschema:"description=Numbers to scale"`
	Factor float64   `json:"factor,omitempty" jsonschema:"description=Multiplier,default=2"`
	Round  bool      `json:"round,omitempty" jsonschema:"description=Round the results"`
	Label  string    `json:"label,omitempty" jsonschema:"enum=low,enum=high"`
}

type countArgs struct {
	Steps int `json:"steps" jsonschema:"description=How many progress steps,minimum=1,maximum=10"`
}

type profile struct {
	Name string `json:"name" jsonschema:"description=Your name"`
	Age  int    `json:"age,omitempty" jsonschema:"description=Your age,minimum=0"`
	Team string `json:"team,omitempty" jsonschema:"description=Your team,enum=red,enum=blue,default=red"`
}

type greetArgs struct {
	Name  string `json:"name" jsonschema:"description=Who to greet"`
	Style string `json:"style,omitempty" jsonschema:"description=formal or casual"`
}

type headerArgs struct {
	Name string `json:"name" jsonschema:"description=The HTTP header to echo"`
}

type fileID struct {
	ID string `json:"id" jsonschema:"description=File id"`
}

// blobBytes is the binary resource's contents: not UTF-8.
var blobBytes = []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff}

func newTestServer(opts ...fastmcp.Option) *fastmcp.Server {
	d := fastmcp.Description
	s := fastmcp.New("cli-test-server", "1.2.3", append([]fastmcp.Option{
		fastmcp.Logger(slog.New(slog.NewTextHandler(io.Discard, nil))),
		fastmcp.Instructions("A server for the fastmcp command's tests."),
	}, opts...)...)
	s.Tool("add", func(in addArgs) sum { return sum{in.A + in.B} }, d("Adds two integers"), fastmcp.ReadOnly())
	s.Tool("scale", func(in scaleArgs) string {
		f := in.Factor
		if f == 0 {
			f = 2
		}
		var parts []string
		for _, v := range in.Values {
			v *= f
			if in.Round {
				v = float64(int64(v + 0.5))
			}
			parts = append(parts, fmt.Sprint(v))
		}
		return strings.Join(parts, " ") + " " + in.Label
	}, d("Multiplies numbers"))
	s.Tool("count", func(ctx *fastmcp.Context, in countArgs) (string, error) {
		for i := 1; i <= in.Steps; i++ {
			if err := ctx.Progress(float64(i), float64(in.Steps), fmt.Sprintf("step %d", i)); err != nil {
				return "", err
			}
		}
		return fmt.Sprintf("counted to %d", in.Steps), nil
	}, d("Reports progress while counting"))
	s.Tool("chatty", func(ctx *fastmcp.Context) string {
		ctx.Info("starting")
		ctx.Warning("half way")
		return "done"
	}, d("Logs while it works"))
	s.Tool("fail", func() (string, error) {
		return "", errors.New("the disk is full")
	}, d("Always fails"))
	s.Tool("signup", func(ctx *fastmcp.Context) (string, error) {
		var p profile
		action, err := ctx.Elicit("Tell us about yourself", &p)
		if err != nil {
			return "", err
		}
		if action != fastmcp.ElicitAccept {
			return "signup " + string(action), nil
		}
		return fmt.Sprintf("welcome %s (%d) of team %s", p.Name, p.Age, p.Team), nil
	}, d("Asks the user for a profile"))
	s.Tool("header", func(ctx *fastmcp.Context, in headerArgs) string {
		if ctx.HTTPRequest() == nil {
			return "no HTTP request"
		}
		return in.Name + ": " + ctx.HTTPRequest().Header.Get(in.Name)
	}, d("Echoes a header of the HTTP request"))
	s.Tool("wait", func(ctx *fastmcp.Context) (string, error) {
		ctx.Info("waiting")
		<-ctx.Done()
		return "", ctx.Err()
	}, d("Waits until the call is cancelled"))
	s.Tool("visit", func(ctx *fastmcp.Context) (string, error) {
		e, err := ctx.ElicitURL("Pay the invoice", "https://pay.example.com/invoice/7")
		if err != nil {
			return "", err
		}
		return "visit " + string(e.Action), e.Complete()
	}, d("Sends the user to a page"))
	s.Tool("picture", func() []fastmcp.Content {
		return []fastmcp.Content{fastmcp.Text("a picture:"), fastmcp.Image(blobBytes, "image/png")}
	}, d("Returns an image"))

	s.Resource("mem://readme", func() string { return "Read me first." }, d("The readme"), fastmcp.MIMEType("text/plain"))
	s.Resource("mem://logo", func() []byte { return blobBytes }, d("A binary file"), fastmcp.MIMEType("image/png"))
	s.Resource("mem://files/{id}", func(in fileID) string { return "file " + in.ID }, d("A file by id"))

	s.Prompt("greeting", func(in greetArgs) string {
		if in.Style == "formal" {
			return "Good day, " + in.Name + "."
		}
		return "Hi " + in.Name + "!"
	}, d("Greets someone"))
	return s
}

func main() {
	stdio := flag.Bool("stdio", false, "serve over stdin and stdout")
	hostileFlag := flag.Bool("hostile", false, "with -stdio, serve the hostile server (hostile.go) instead")
	addr := flag.String("http", "", "serve Streamable HTTP on this address, printing \"listening on URL\"")
	issuer := flag.String("issuer", "", "require OAuth access tokens from this authorization server (with -http)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch {
	case *stdio && *hostileFlag:
		err = newHostileServer().ServeStdio(ctx)
	case *stdio:
		// Its log on stderr, as a real server's: the log messages it
		// also sends as notifications must not be printed twice.
		err = newTestServer(fastmcp.Logger(slog.New(slog.NewTextHandler(os.Stderr, nil)))).ServeStdio(ctx)
	case *addr != "":
		err = serveHTTP(ctx, *addr, *issuer)
	default:
		err = errors.New("usage: server -stdio | -http ADDR [-issuer URL]")
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "test server:", err)
		os.Exit(1)
	}
}

func serveHTTP(ctx context.Context, addr, issuer string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	opts := []fastmcp.Option{fastmcp.Listener(ln)}
	if issuer != "" {
		opts = append(opts, fastmcp.Auth(auth.Protect(auth.JWT(issuer, url), func(*auth.ProtectOptions) {})))
	}
	s := newTestServer(opts...)
	if issuer != "" {
		s.Tool("whoami", func(ctx *fastmcp.Context) string { return "you are " + ctx.Auth().Subject })
	}
	fmt.Println("listening on", url)
	return s.Run(ctx)
}
