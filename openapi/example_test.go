package openapi_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/openapi"
	"github.com/fastmcp-go/fastmcp/transport"
)

const petstore = `
openapi: 3.0.3
info: {title: Petstore, version: "1.0.0"}
paths:
  /pets/{petId}:
    get:
      operationId: showPetById
      summary: Info for a specific pet
      tags: [pets]
      parameters:
        - {name: petId, in: path, required: true, schema: {type: integer, minimum: 1}}
      responses:
        "200":
          description: The pet
          content:
            application/json:
              schema:
                type: object
                properties: {id: {type: integer}, name: {type: string}}
`

// An HTTP API described by an OpenAPI document becomes MCP tools.
func Example() {
	// The API itself (here a stand-in on 127.0.0.1).
	mux := http.NewServeMux()
	mux.HandleFunc("GET /pets/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":%s,"name":"Rex"}`, r.PathValue("id"))
	})
	api := httptest.NewServer(mux)
	defer api.Close()

	d, err := openapi.Parse([]byte(petstore))
	if err != nil {
		panic(err)
	}
	s := fastmcp.New("petstore", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	comps, err := openapi.Register(s, d, openapi.Config{BaseURL: api.URL, Prefix: "petstore_"})
	if err != nil {
		panic(err)
	}
	fmt.Println(comps[0].Kind, comps[0].Name)

	// A client calls the tool; the bridge makes the HTTP request.
	cc, sc := transport.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Serve(ctx, sc) }()
	defer func() { cancel(); <-done }()
	c, err := client.Connect(context.Background(), cc, client.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		panic(err)
	}
	defer c.Close()
	res, _ := c.CallTool(ctx, "petstore_showPetById", map[string]any{"petId": 7})
	fmt.Println(string(res.StructuredContent))
	res, _ = c.CallTool(ctx, "petstore_showPetById", map[string]any{"petId": 0})
	fmt.Println(res.IsError, res.Text())
	// Output:
	// tool petstore_showPetById
	// {"id":7,"name":"Rex"}
	// true invalid arguments for tool petstore_showPetById: petId: must be >= 1
}

// A Config that shapes the catalogue: routes choose what each operation
// becomes, the API key goes with every request, and the client's timeout
// bounds each call.
func ExampleConfig() {
	d, err := openapi.ReadFile("petstore.yaml")
	if err != nil {
		panic(err)
	}
	s := fastmcp.New("petstore", "1.0.0")
	_, err = openapi.Register(s, d, openapi.Config{
		BaseURL: "https://petstore.example.com/v1",
		Client:  &http.Client{Timeout: 30 * time.Second},
		Routes: []openapi.Route{
			{Pattern: `^/admin/`, Kind: openapi.Exclude},
			{Methods: []string{"GET"}, Kind: openapi.Resource},
			{Methods: []string{"GET"}, Tags: []string{"pets"}, Kind: openapi.ResourceTemplate},
		},
		Names:   map[string]string{"showPetById": "get_pet"},
		Headers: http.Header{"X-Api-Key": {os.Getenv("PETSTORE_KEY")}},
	})
	if err != nil {
		panic(err)
	}
}
