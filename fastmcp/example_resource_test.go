package fastmcp_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// A static resource is a function returning its contents: a string is
// text, []byte a blob, any other value JSON.
func ExampleServer_Resource() {
	s := fastmcp.New("notes", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Resource("notes://readme", func() string {
		return "Welcome to the notes server."
	}, fastmcp.Title("README"), fastmcp.Description("Start here"))
	s.Resource("notes://settings", func(ctx *fastmcp.Context) (map[string]any, error) {
		return map[string]any{"theme": "dark"}, nil
	})

	c, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()
	for r, err := range c.Resources(ctx) {
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s (%s)\n", r.URI, r.MIMEType)
	}
	res, _ := c.ReadResource(ctx, "notes://settings")
	fmt.Println(res.Contents[0].MIMEType, res.Contents[0].Text)
	// Output:
	// notes://readme (text/plain)
	// notes://settings (application/json)
	// application/json {"theme":"dark"}
}

type UserID struct {
	ID int `json:"id" validate:"gte=1"`
}

type User struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// A resource template's variables bind to the fields of the handler's
// argument struct, by json name, and are validated like tool arguments.
func ExampleServer_Resource_template() {
	users := map[int]string{1: "Ada", 2: "Grace"}

	s := fastmcp.New("users", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Resource("users://{id}/profile", func(ctx *fastmcp.Context, in UserID) (User, error) {
		name, ok := users[in.ID]
		if !ok {
			return User{}, fmt.Errorf("user %d: %w", in.ID, protocol.ErrResourceNotFound)
		}
		return User{ID: in.ID, Name: name}, nil
	}, fastmcp.Description("A user's profile"))

	c, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()
	res, _ := c.ReadResource(ctx, "users://2/profile")
	fmt.Println(res.Contents[0].Text)

	_, err := c.ReadResource(ctx, "users://3/profile")
	fmt.Println(err)
	_, err = c.ReadResource(ctx, "users://0/profile")
	fmt.Println(err)
	// Output:
	// {"id":2,"name":"Grace"}
	// Resource not found
	// invalid arguments for resource users://0/profile: id: must be >= 1
}

type DocPath struct {
	Path string `json:"path"`
}

// A template can serve a directory: {+path} keeps the slashes, and a value
// with a ".." segment never reaches the handler.
func ExampleServer_Resource_files() {
	dir, _ := os.MkdirTemp("", "docs")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "guide.md"), []byte("# Guide"), 0o644)

	s := fastmcp.New("files", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Resource("docs:///{+path}", func(in DocPath) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(in.Path)))
	}, fastmcp.MIMEType("text/markdown"))

	c, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()
	res, _ := c.ReadResource(ctx, "docs:///guide.md")
	fmt.Printf("%s %s\n", res.Contents[0].MIMEType, res.Contents[0].Blob)

	_, err := c.ReadResource(ctx, "docs:///missing.md") // os.ReadFile: fs.ErrNotExist
	fmt.Println(err)
	_, err = c.ReadResource(ctx, "docs:///../secret")
	fmt.Println(err)
	// Output:
	// text/markdown # Guide
	// Resource not found
	// invalid arguments for resource docs:///../secret: path: must not have a ".." path segment
}

// Clients subscribe to a resource (on protocol revisions before
// 2026-07-28) and hear when the server says it changed.
func ExampleServer_NotifyResourceUpdated() {
	s := fastmcp.New("clock", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Resource("clock://now", func() string { return "12:00" })

	c, stop := serveInMemory(s, client.WithProtocolVersion(protocol.LatestLegacyVersion))
	defer stop()
	ctx := context.Background()
	updated := make(chan string, 1)
	if err := c.Subscribe(ctx, "clock://now", func(uri string) { updated <- uri }); err != nil {
		panic(err)
	}

	s.NotifyResourceUpdated(ctx, "clock://now")
	fmt.Println("updated:", <-updated)
	// Output:
	// updated: clock://now
}

// A handler can read the server's other resources, templates included.
func ExampleContext_ReadResource() {
	s := fastmcp.New("report", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Resource("data://sales/{year}", func(in struct {
		Year int `json:"year"`
	}) string {
		return fmt.Sprint(in.Year * 10)
	})
	s.Resource("data://report", func(ctx *fastmcp.Context) (string, error) {
		contents, err := ctx.ReadResource("data://sales/2025")
		if err != nil {
			return "", err
		}
		if _, err := ctx.ReadResource("data://nothing"); errors.Is(err, protocol.ErrResourceNotFound) {
			return "sales: " + contents[0].Text, nil
		}
		return "", errors.New("unreachable")
	})

	c, stop := serveInMemory(s)
	defer stop()
	res, _ := c.ReadResource(context.Background(), "data://report")
	fmt.Println(res.Contents[0].Text)
	// Output:
	// sales: 20250
}
