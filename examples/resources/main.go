// Command resources serves resources — fixed URIs — and resource
// templates — families of URIs with variables — and reads them as a client.
// Run it with
//
//	go run ./examples/resources
//
// The server runs in the same process over HTTP on 127.0.0.1 (a free port).
// It prints:
//
//	resource config://app (app config, application/json)
//	resource docs://readme (readme, text/markdown)
//	template users://{id}/profile (user profile)
//	read config://app: application/json {"region":"eu-west-1","debug":false}
//	read docs://readme: text/markdown # Users service
//	read users://2/profile: application/json {"id":2,"name":"Grace"}
//	read users://9/profile: error: Resource not found
//	read users://x/profile: error: Invalid params: resource users://x/profile: id: must be an integer, not "x"
package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// Config is the app's settings, served as JSON.
type Config struct {
	Region string `json:"region"`
	Debug  bool   `json:"debug"`
}

// UserID holds the variables of the users://{id}/profile template: each
// variable is a field with the same json name, converted and validated like
// tool arguments.
type UserID struct {
	ID int `json:"id" validate:"gte=1"`
}

// User is a user's profile.
type User struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

var users = map[int]string{1: "Ada", 2: "Grace"}

func newServer(opts ...fastmcp.Option) *fastmcp.Server {
	s := fastmcp.New("users", "1.0.0", opts...)
	// A static resource: a string is text, with the MIME type given.
	s.Resource("docs://readme", func() string {
		return "# Users service"
	}, fastmcp.ResourceName("readme"), fastmcp.MIMEType("text/markdown"))
	// Any other value is sent as JSON (application/json).
	s.Resource("config://app", func(ctx *fastmcp.Context) (Config, error) {
		return Config{Region: "eu-west-1"}, nil
	}, fastmcp.ResourceName("app config"))
	// A template: the handler takes its variables as a struct.
	s.Resource("users://{id}/profile", func(ctx *fastmcp.Context, in UserID) (User, error) {
		name, ok := users[in.ID]
		if !ok {
			// fs.ErrNotExist (or protocol.ErrResourceNotFound) tells the
			// client "resource not found".
			return User{}, fmt.Errorf("user %d: %w", in.ID, fs.ErrNotExist)
		}
		return User{ID: in.ID, Name: name}, nil
	}, fastmcp.ResourceName("user profile"))
	return s
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "resources:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free loopback port
	if err != nil {
		return err
	}
	url, stop, err := serve(ctx, newServer(fastmcp.Listener(ln)), ln)
	if err != nil {
		return err
	}
	defer stop()
	cl, err := client.ConnectHTTP(ctx, url)
	if err != nil {
		return err
	}
	defer cl.Close()

	for r, err := range cl.Resources(ctx) { // pages through resources/list
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "resource %s (%s, %s)\n", r.URI, r.Name, r.MIMEType)
	}
	for t, err := range cl.ResourceTemplates(ctx) {
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "template %s (%s)\n", t.URITemplate, t.Name)
	}
	for _, uri := range []string{"config://app", "docs://readme", "users://2/profile", "users://9/profile", "users://x/profile"} {
		res, err := cl.ReadResource(ctx, uri)
		if err != nil {
			fmt.Fprintf(out, "read %s: error: %v\n", uri, err)
			continue
		}
		for _, c := range res.Contents {
			fmt.Fprintf(out, "read %s: %s %s\n", uri, c.MIMEType, c.Text)
		}
	}
	return nil
}

// serve runs s, made with the option fastmcp.Listener(ln), until stop is
// called, and returns the URL of its MCP endpoint.
func serve(ctx context.Context, s *fastmcp.Server, ln net.Listener) (url string, stop func(), err error) {
	if err := s.Start(ctx); err != nil { // ready before the first request
		ln.Close()
		return "", nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	return "http://" + ln.Addr().String() + "/mcp", func() { cancel(); <-done }, nil
}
