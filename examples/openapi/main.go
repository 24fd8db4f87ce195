// Command openapi serves an existing HTTP API as MCP: the tools, resource
// templates and prompts-free catalogue generated from its OpenAPI document
// (package openapi), shaped by a route map and tool transformations.
//
//	go run ./examples/openapi                       # stdio; the built-in demo pet store API
//	go run ./examples/openapi -addr 127.0.0.1:8080  # Streamable HTTP at /mcp
//	go run ./examples/openapi -spec api.yaml -base-url https://api.example.com
//
// With the embedded Petstore document it serves:
//
//   - list_pets and add_pet, derived from listPets and createPets
//     (TransformTool): limit defaults to 10, and a new pet's id is chosen by
//     the server, never by the model;
//   - petstore://pets/{petId}, a resource template made from showPetById by
//     the route map;
//   - nothing for the "admin" operations (deletePet): the route map excludes
//     them.
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/openapi"
)

//go:embed petstore.yaml
var petstore []byte

func main() {
	if err := run(); err != nil && !errors.Is(err, context.Canceled) {
		log.Fatal(err)
	}
}

func run() error {
	s := fastmcp.New("petstore", "1.0.0")
	spec := flag.String("spec", "", "OpenAPI 3.0 or 3.1 document (file or http(s) URL); default: the embedded Petstore")
	baseURL := flag.String("base-url", "", "where the API's requests go; default: a demo pet store API served by this program on 127.0.0.1")
	s.Flags(flag.CommandLine) // -addr (Streamable HTTP instead of stdio), -log-level, ...: override FASTMCP_* variables
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	doc, err := load(ctx, *spec)
	if err != nil {
		return err
	}
	if *baseURL == "" && *spec == "" {
		url, stopAPI, err := serveDemoAPI()
		if err != nil {
			return err
		}
		defer stopAPI()
		*baseURL = url
	}
	if err := build(s, doc, *baseURL); err != nil {
		return err
	}
	return s.Run(ctx)
}

// load reads the document: the embedded Petstore, a file or a URL.
func load(ctx context.Context, spec string) (*openapi.Document, error) {
	switch {
	case spec == "":
		return openapi.Parse(petstore)
	case len(spec) > 7 && (spec[:7] == "http://" || spec[:8] == "https://"):
		return openapi.Fetch(ctx, &http.Client{Timeout: 30 * time.Second}, spec)
	default:
		return openapi.ReadFile(spec)
	}
}

// build registers the API on s: GETs with only path parameters as
// resource templates, the admin operations left out, and two tools
// reshaped for a model.
func build(s *fastmcp.Server, doc *openapi.Document, baseURL string) error {
	_, err := openapi.Register(s, doc, openapi.Config{
		BaseURL:        baseURL,
		Client:         &http.Client{Timeout: 30 * time.Second},
		ResourceScheme: "petstore",
		Routes: []openapi.Route{
			{Tags: []string{"admin"}, Kind: openapi.Exclude},
			{Methods: []string{"GET"}, Pattern: `^/pets/\{petId\}$`, Kind: openapi.ResourceTemplate},
		},
	})
	if err != nil {
		return err
	}
	if !hasTool(doc, "listPets") || !hasTool(doc, "createPets") {
		return nil // another document: served as generated
	}
	s.TransformTool("listPets", "list_pets",
		fastmcp.Description("List the pets in the store, the first ones first."),
		fastmcp.TransformArg("limit", fastmcp.ArgTransform{Default: 10}))
	var nextID atomic.Int64
	nextID.Store(time.Now().Unix())
	s.TransformTool("createPets", "add_pet",
		fastmcp.Description("Add a pet to the store. The store chooses its id."),
		fastmcp.TransformArg("id", fastmcp.ArgTransform{Hide: true, Value: func(*fastmcp.Context) (any, error) {
			return nextID.Add(1), nil
		}}),
		fastmcp.TransformArg("tag", fastmcp.ArgTransform{Description: "what kind of animal: cat, dog, ..."}))
	s.Disable(fastmcp.Selector{Names: []string{"listPets", "createPets"}})
	return nil
}

func hasTool(doc *openapi.Document, id string) bool {
	for _, op := range doc.Operations() {
		if op.ID == id {
			return true
		}
	}
	return false
}
